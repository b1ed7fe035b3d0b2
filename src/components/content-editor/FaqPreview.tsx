/**
 * The FAQ preview of the content editor: the question as the /faqs accordion shows it, opened,
 * inside its category. Markup and classes mirror src/pages/faqs.astro; the site's stylesheet is
 * the preview's (src/components/content-editor/app.ts). The wide right padding keeps the card clear of
 * the buttons Decap floats over the preview's top right corner.
 */
import { iconPaths } from '../../lib/shared/icons';
import { plain, type PreviewProps } from './previewTypes';

function Chevron({ className }: { className: string }) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width={24}
      height={24}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {iconPaths.chevronDown.paths.map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

/** `categoryNames`: the FAQ categories by id, as built. */
export function faqPreview(categoryNames: Record<string, string>) {
  // biome-ignore lint/correctness/noComponentHookFactories: made once, when the editor registers its previews, with the categories as built
  return function FaqPreview({ entry, widgetFor }: PreviewProps) {
    const question = plain<string>(entry.getIn(['data', 'question'])) || 'Your question';
    const category = plain<string>(entry.getIn(['data', 'category'])) ?? '';
    return (
      <main className="mx-auto max-w-4xl py-section pl-4 pr-16 sm:pl-6" data-preview="faq">
        <details className="faq-category group/category rounded-card border border-line bg-white shadow-card" open>
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-card px-5 py-5 sm:px-6 [&::-webkit-details-marker]:hidden">
            <h2 className="text-lg font-bold text-ink sm:text-xl">{categoryNames[category] ?? (category || 'Choose a category')}</h2>
            <Chevron className="h-5 w-5 text-muted transition-transform group-open/category:rotate-180" />
          </summary>
          <ul className="divide-y divide-line border-t border-line">
            <li>
              <details className="faq-item group/item" open>
                <summary className="flex cursor-pointer list-none items-start justify-between gap-4 px-5 py-4 hover:bg-canvas sm:px-6 [&::-webkit-details-marker]:hidden">
                  <h3 className="scroll-mt-24 font-semibold text-ink">{question}</h3>
                  <Chevron className="mt-0.5 h-5 w-5 shrink-0 text-muted transition-transform group-open/item:rotate-180" />
                </summary>
                <div className="rich-text px-5 pb-5 sm:px-6">{widgetFor('body')}</div>
              </details>
            </li>
          </ul>
        </details>
      </main>
    );
  };
}
