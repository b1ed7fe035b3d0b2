/**
 * The browser side of /content-editor: Decap CMS from npm, with the configuration the page was
 * built with (src/lib/shared/content-editor/config.ts), the YAML list format, the `rule-list` widget and
 * previews in the site's own styles. Only this page loads it.
 */
import CMS from 'decap-cms-app';
import type { CmsConfig } from 'decap-cms-core';
import { FrontmatterInfer } from 'decap-cms-core/dist/esm/formats/frontmatter.js';
import type { ComponentType } from 'react';
import siteCss from '../../styles/global.css?inline';
import richTextCss from '../../styles/rich-text.css?inline';
import { faqPreview } from './FaqPreview';
import { ruleListControl } from './RuleListControl';
import { StatsPreview } from './StatsPreview';
import type { EditorConfig, EditorField } from '../../lib/shared/content-editor/config';
import { LIST_FIELD } from '../../lib/shared/content-editor/list-field';
import { markedFormat, twinFormatName } from '../../lib/shared/content-editor/twin-format';
import { twinProblems, type TwinCheck } from '../../lib/shared/content-editor/twins';
import { isLeftEmpty } from '../../lib/browser/content-editor/values';
import { LOCALE_WORDS_FORMAT, wordsFormat } from '../../lib/shared/content-editor/words-format';
import { yamlListFormat } from '../../lib/browser/content-editor/yaml-list';
import { plain } from './previewTypes';

/** Decap wraps a rendered markdown field in a div of its own: its paragraphs are one level deeper than on the site. */
const previewCss = '.rich-text > div > * + * { margin-top: 1em; }';

/** What the page hands over in `<script type="application/json" id="content-editor-data">`. */
export interface EditorPageData {
  config: EditorConfig;
  faqCategoryNames: Record<string, string>;
  /** What each two-language collection's second language must hold to be saved. */
  twinChecks: TwinCheck[];
}

function registerTwinFormats(config: EditorConfig): void {
  for (const collection of config.collections) {
    if (collection.format !== twinFormatName(collection.name) || !collection.identifier_field) continue;
    CMS.registerCustomFormat(collection.format, collection.extension ?? 'mdx', markedFormat(FrontmatterInfer, collection.identifier_field));
  }
  CMS.registerCustomFormat(LOCALE_WORDS_FORMAT, 'yaml', wordsFormat);
}

function registerListFormats(config: EditorConfig): void {
  for (const collection of config.collections) {
    if (!collection.files) continue;
    // One format per collection: its entries' keys in schema order, its date fields unquoted.
    const fields = collection.files.flatMap((file) => file.fields.find((field) => field.name === LIST_FIELD)?.fields ?? []);
    const keyOrder = [...new Set(fields.map((field) => field.name))];
    const dateFields = [...new Set(fields.filter((field: EditorField) => field.widget === 'datetime').map((field) => field.name))];
    CMS.registerCustomFormat(collection.format, 'yaml', yamlListFormat(keyOrder, dateFields));
  }
}

function registerRuleList(): void {
  const list = CMS.getWidget('list') as unknown as {
    control: ComponentType<Record<string, unknown>>;
    preview?: ComponentType<never>;
    schema?: { properties?: object };
  };
  const schema = {
    properties: {
      ...list.schema?.properties,
      unique_field: { type: 'string' },
      exactly_one_of: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
      required_values: { type: 'object' },
    },
  };
  (CMS.registerWidget as unknown as (name: string, control: unknown, preview: unknown, schema: unknown) => void)(
    'rule-list',
    ruleListControl(list.control),
    list.preview,
    schema,
  );
}

/** An Immutable.js map as Decap hands an entry's data to event listeners. */
interface EntryData {
  filter(keep: (value: unknown) => boolean): EntryData;
}

export function startContentEditor(data: EditorPageData): void {
  registerListFormats(data.config);
  registerTwinFormats(data.config);
  // Decap checks only the language shown first: an entry whose other language is missing or
  // incomplete is refused here, naming the field or key (../../lib/shared/content-editor/twins.ts).
  CMS.registerEventListener({
    name: 'preSave',
    handler: ({ entry }) => {
      const check = data.twinChecks.find((candidate) => candidate.collection === entry.get('collection'));
      if (!check) return undefined;
      const problems = twinProblems(
        check,
        plain<Record<string, unknown>>(entry.get('data')),
        plain<Record<string, unknown>>(entry.getIn(['i18n', check.locale, 'data'])),
      );
      if (problems.length) throw new Error(problems.join(' '));
      return undefined;
    },
  });
  // Optional fields left empty are written as absent (see ./values.ts); list files do the same per entry.
  CMS.registerEventListener({
    name: 'preSave',
    handler: ({ entry }) => (entry.get('data') as EntryData).filter((value) => !isLeftEmpty(value)),
  });
  registerRuleList();
  CMS.registerPreviewStyle(`${siteCss}\n${richTextCss}\n${previewCss}`, { raw: true });
  CMS.registerPreviewTemplate('faqs', faqPreview(data.faqCategoryNames));
  CMS.registerPreviewTemplate('stats', StatsPreview);
  // The configuration is complete (load_config_file: false): nothing is fetched from config.yml.
  CMS.init({ config: data.config as unknown as CmsConfig });
}
