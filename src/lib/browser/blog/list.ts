/** The blog list's tag filter and its "Showing n of total articles" line, on the prebuilt cards. */
import { scrollToId } from '../frame/scroll';

/** The list's count line, from the page's words (`blog.count`, handed over in `data-count-words`). */
export function countText(shown: number, total: number, words = 'Showing {shown} of {total} articles'): string {
  return words.replace('{shown}', String(shown)).replace('{total}', String(total));
}

export function initBlogList(root: Document = document): void {
  const filter = root.querySelector<HTMLElement>('[data-blog-filter]');
  const grid = root.querySelector<HTMLElement>('[data-blog-grid]');
  const count = root.querySelector<HTMLElement>('[data-blog-count]');
  // Only the list's own cards are filtered (a Spanish list's English articles below are not).
  const cards = [...root.querySelectorAll<HTMLElement>('[data-blog-grid] [data-blog-card]')];

  for (const link of root.querySelectorAll<HTMLAnchorElement>('[data-scroll-footer]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      scrollToId('site-footer');
    });
  }
  if (!filter || !grid || !count) return;

  const buttons = [...filter.querySelectorAll<HTMLButtonElement>('button[data-tag]')];
  const select = (tag: string) => {
    let shown = 0;
    for (const card of cards) {
      const hit = !tag || (card.dataset.tags ?? '').split(' ').includes(tag);
      card.hidden = !hit;
      if (hit) shown++;
    }
    for (const button of buttons) button.setAttribute('aria-pressed', String(button.dataset.tag === tag));
    grid.toggleAttribute('data-single', shown === 1);
    count.textContent = countText(shown, cards.length, count.dataset.countWords);
  };

  for (const button of buttons) button.addEventListener('click', () => select(button.dataset.tag ?? ''));
}
