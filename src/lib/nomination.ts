/** The home nomination form's call to POST /api/nominations and the §8 messages it shows. */
import { nominationSchema, type Nomination } from './schemas';

export const NOMINATION_SUCCESS = {
  title: 'Success!',
  description: "Your school nomination has been submitted. We'll be in touch soon!",
} as const;

export const NOMINATION_FAILURE = {
  title: 'Error',
  description: 'Failed to submit nomination. Please try again.',
  variant: 'destructive',
} as const;

export type NominationResult =
  | { ok: true; id?: string }
  | { ok: false; kind: 'invalid'; fieldErrors: Partial<Record<keyof Nomination, string>> }
  | { ok: false; kind: 'failed'; message: string };

/** Reads the form's values, validates them with the shared schema, then posts them. */
export async function submitNomination(input: Record<string, unknown>, fetchImpl: typeof fetch = fetch): Promise<NominationResult> {
  // Only the six fields of the schema are sent, whatever else the form carries.
  const fields = Object.keys(nominationSchema.shape) as Array<keyof Nomination>;
  const parsed = nominationSchema.safeParse(Object.fromEntries(fields.map((field) => [field, input[field]])));
  if (!parsed.success) {
    const fieldErrors: Partial<Record<keyof Nomination, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof Nomination | undefined;
      if (field && !fieldErrors[field]) fieldErrors[field] = field === 'email' ? 'Enter a valid email address.' : 'This field is required.';
    }
    return { ok: false, kind: 'invalid', fieldErrors };
  }
  try {
    const response = await fetchImpl('/api/nominations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'include',
      body: JSON.stringify(parsed.data),
    });
    if (!response.ok) {
      let message = `${response.status}: ${response.statusText}`;
      try {
        const body = (await response.json()) as { error?: { message?: string } };
        if (body?.error?.message) message = body.error.message;
      } catch {
        // not JSON: keep the status line
      }
      return { ok: false, kind: 'failed', message };
    }
    const body = (await response.json().catch(() => ({}))) as { id?: string };
    return { ok: true, id: body.id };
  } catch {
    return { ok: false, kind: 'failed', message: 'The network is unavailable.' };
  }
}
