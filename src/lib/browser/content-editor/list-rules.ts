/**
 * Rules over the entries of a YAML list file that no single field can check: ids unique in the
 * file (Astro's `file()` loader would keep only the last), exactly one of two fields filled (the
 * `.refine` of the stats schema), and ids that other files use kept. The `rule-list` widget
 * (src/components/content-editor/RuleListControl.tsx) shows these messages and refuses to save.
 */
export interface ListRules {
  unique_field?: string;
  exactly_one_of?: string[][];
  required_values?: { field: string; values: string[]; message: string };
}

export type Entry = Record<string, unknown>;

function filled(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !(typeof value === 'number' && Number.isNaN(value));
}

/**
 * Each broken rule as a sentence naming the entry (its position and id) and the fields, e.g.
 * `Statistic 3 ("one-in-five"): fill in "Number" or "Text", not both.`
 */
export function listRuleErrors(entries: Entry[], rules: ListRules, labels: Record<string, string>, entryLabel: string): string[] {
  const errors: string[] = [];
  const label = (field: string) => `"${labels[field] ?? field}"`;
  const name = (entry: Entry, index: number) => {
    const id = rules.unique_field ? entry[rules.unique_field] : undefined;
    return `${entryLabel} ${index + 1}${filled(id) ? ` ("${String(id)}")` : ''}`;
  };

  for (const [index, entry] of entries.entries()) {
    for (const group of rules.exactly_one_of ?? []) {
      const given = group.filter((field) => filled(entry[field]));
      const choices = group.map(label).join(' or ');
      if (given.length === 0) errors.push(`${name(entry, index)}: fill in ${choices}.`);
      else if (given.length > 1) errors.push(`${name(entry, index)}: fill in ${choices}, not both.`);
    }
  }

  if (rules.unique_field) {
    const field = rules.unique_field;
    const seen = new Map<string, number>();
    for (const [index, entry] of entries.entries()) {
      if (!filled(entry[field])) continue;
      const value = String(entry[field]);
      const first = seen.get(value);
      if (first === undefined) seen.set(value, index);
      else errors.push(`${entryLabel} ${first + 1} and ${index + 1} have the same ${label(field)} "${value}"; each must be unique.`);
    }
  }

  if (rules.required_values) {
    const { field, values, message } = rules.required_values;
    const present = new Set(entries.map((entry) => String(entry[field] ?? '')));
    for (const value of values.filter((candidate) => !present.has(candidate))) {
      errors.push(`${label(field)} "${value}" cannot be removed or renamed: ${message}.`);
    }
  }
  return errors;
}
