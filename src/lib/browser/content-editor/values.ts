/**
 * An optional field an editor left empty: Decap keeps it as '' (or null, or an empty list), and
 * the schema would read '' as a value (an image path that is not a path, a category named '').
 * The editor writes such fields as absent, as if never filled in.
 */
export function isLeftEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  // An Immutable.js list as Decap holds it.
  return typeof value === 'object' && 'size' in value && value.size === 0;
}

export function withoutEmptyFields<T extends Record<string, unknown>>(entry: T): Partial<T> {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => !isLeftEmpty(value))) as Partial<T>;
}
