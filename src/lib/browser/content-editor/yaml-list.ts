/**
 * The Decap format of a YAML file that is a list of entries (content/stats.yaml and the like,
 * read by Astro's `file()` loader). Decap edits an object, so the list is its `items` field; the
 * file keeps its shape: a list at the top, each entry's keys in the schema's order, empty
 * optional fields left out, dates as YYYY-MM-DD. Comments in the file are not kept.
 */
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { LIST_FIELD } from '../../shared/content-editor/list-field';
import { isLeftEmpty } from './values';

export interface YamlListFormat {
  fromFile(content: string): Record<string, unknown>;
  toFile(data: Record<string, unknown>): string;
}

function ordered(entry: Record<string, unknown>, keyOrder: string[]): Record<string, unknown> {
  const keys = [...keyOrder.filter((key) => key in entry), ...Object.keys(entry).filter((key) => !keyOrder.includes(key))];
  return Object.fromEntries(keys.filter((key) => !isLeftEmpty(entry[key])).map((key) => [key, entry[key]]));
}

/**
 * `keyOrder`: the entry's fields in the order they are written; `dateFields`: those holding a
 * date, written unquoted as the hand-written files have them.
 */
export function yamlListFormat(keyOrder: string[], dateFields: string[] = []): YamlListFormat {
  const unquoteDates = dateFields.length ? new RegExp(`^(\\s*(?:- )?(?:${dateFields.join('|')}): )"(\\d{4}-\\d{2}-\\d{2})"$`, 'gm') : undefined;
  return {
    fromFile(content) {
      // Without timestamps, a date stays the "YYYY-MM-DD" text the date widget edits.
      const items: unknown = load(content, { schema: CORE_SCHEMA }) ?? [];
      if (!Array.isArray(items)) throw new Error('This file must be a YAML list of entries.');
      return { [LIST_FIELD]: items };
    },
    toFile(data) {
      const items = (data[LIST_FIELD] as Record<string, unknown>[] | undefined) ?? [];
      // Quoted wherever Astro's reader (js-yaml's default schema) would read something other than the text.
      const text = dump(
        items.map((item) => ordered(item, keyOrder)),
        { lineWidth: -1, noRefs: true, quotingType: '"' },
      );
      return unquoteDates ? text.replace(unquoteDates, '$1$2') : text;
    },
  };
}
