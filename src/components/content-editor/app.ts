/**
 * The browser side of /content-editor: Decap CMS from npm, with the configuration the page was
 * built with (src/lib/content-editor/config.ts), the YAML list format, the `rule-list` widget and
 * previews in the site's own styles. Only this page loads it.
 */
import CMS from 'decap-cms-app';
import type { CmsConfig } from 'decap-cms-core';
import type { ComponentType } from 'react';
import siteCss from '../../styles/global.css?inline';
import richTextCss from '../../styles/rich-text.css?inline';
import { faqPreview } from './FaqPreview';
import { ruleListControl } from './RuleListControl';
import { StatsPreview } from './StatsPreview';
import type { EditorConfig, EditorField } from '../../lib/content-editor/config';
import { LIST_FIELD } from '../../lib/content-editor/list-field';
import { isLeftEmpty } from '../../lib/content-editor/values';
import { yamlListFormat } from '../../lib/content-editor/yaml-list';

/** Decap wraps a rendered markdown field in a div of its own: its paragraphs are one level deeper than on the site. */
const previewCss = '.rich-text > div > * + * { margin-top: 1em; }';

/** What the page hands over in `<script type="application/json" id="content-editor-data">`. */
export interface EditorPageData {
  config: EditorConfig;
  faqCategoryNames: Record<string, string>;
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
