/**
 * HubSpot hands submitted values over in three shapes: an object (`submissionValues` of the v2
 * embed's onFormSubmitted), a list of `{ name, value }` (the `hsFormCallback` message and older
 * embeds), or the v4 embed's list with object-typed names (`0-1/email`). All become one flat record
 * of strings keyed by property name; multi-value fields are joined with ";" as HubSpot does.
 */
export type SubmittedValues = Record<string, string>;

function asString(value: unknown): string {
  if (Array.isArray(value)) return value.map(asString).join(';');
  if (value === null || value === undefined) return '';
  return String(value).trim();
}

export function normaliseSubmission(input: unknown): SubmittedValues {
  const values: SubmittedValues = {};
  if (Array.isArray(input)) {
    for (const item of input) {
      if (item && typeof item === 'object' && 'name' in item) {
        const name = String((item as { name: unknown }).name);
        const value = asString((item as { value?: unknown }).value);
        values[name] = values[name] ? `${values[name]};${value}` : value;
      }
    }
    return values;
  }
  if (input && typeof input === 'object') {
    for (const [name, value] of Object.entries(input)) values[name] = asString(value);
  }
  return values;
}

/** HubSpot's object type id of contacts, the `0-1` of `0-1/email`. */
const CONTACT = '0-1';

/**
 * The values of a v4 form, as `form.getFormFieldValues()` resolves them: a list of `{ name, value }`
 * whose names carry the object type of the property (`0-1/email` for a contact property, `0-2/…` for
 * a company's). The site reads contact property names (`email`), so the prefix is dropped; when two
 * objects have a property of the same name the contact's wins. Multi-value fields come as arrays.
 */
export function normaliseV4Values(fields: unknown): SubmittedValues {
  const values: SubmittedValues = {};
  /** The object type each value came from. */
  const objectOf = new Map<string, string>();
  if (!Array.isArray(fields)) return values;
  for (const field of fields) {
    if (!field || typeof field !== 'object' || typeof (field as { name?: unknown }).name !== 'string') continue;
    const match = /^(\d+-\d+)\/(.+)$/.exec((field as { name: string }).name);
    const [name, objectType] = match ? [match[2]!, match[1]!] : [(field as { name: string }).name, CONTACT];
    if (!name) continue;
    const value = asString((field as { value?: unknown }).value);
    const prior = objectOf.get(name);
    if (prior === objectType) values[name] = `${values[name]};${value}`;
    else if (prior === undefined || objectType === CONTACT) {
      values[name] = value;
      objectOf.set(name, objectType);
    }
  }
  return values;
}

/** Pulls the submitted values out of whatever the embed passed to onFormSubmitted or a message. */
export function valuesFromPayload(payload: unknown): SubmittedValues {
  if (!payload || typeof payload !== 'object') return {};
  const data = payload as { submissionValues?: unknown; data?: unknown };
  if (data.submissionValues !== undefined) return normaliseSubmission(data.submissionValues);
  if (data.data !== undefined) return valuesFromPayload(data.data);
  return normaliseSubmission(payload);
}

/** Origins allowed to post `hsFormCallback` messages: the page itself and HubSpot's form hosts. */
export function isTrustedFormOrigin(origin: string, pageOrigin: string): boolean {
  if (origin === pageOrigin) return true;
  try {
    const { protocol, hostname } = new URL(origin);
    return protocol === 'https:' && /(^|\.)(hsforms\.com|hsforms\.net|hubspot\.com)$/.test(hostname);
  } catch {
    return false;
  }
}
