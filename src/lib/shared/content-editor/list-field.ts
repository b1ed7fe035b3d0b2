/** The Decap field holding the entries of a YAML list file (Decap edits an object; the file is a list). */
export const LIST_FIELD = 'items';

/** The custom Decap format name of one collection's YAML list files. */
export function listFormatName(collection: string): string {
  return `yaml-list-${collection}`;
}
