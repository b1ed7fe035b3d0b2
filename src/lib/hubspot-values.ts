/**
 * HubSpot hands submitted values over in two shapes: an object (`submissionValues` of
 * onFormSubmitted) or a list of `{ name, value }` (the `hsFormCallback` message and older embeds).
 * Both become one flat record of strings; multi-value fields are joined with ";" as HubSpot does.
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
