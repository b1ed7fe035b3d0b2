/** The home nomination form's call to POST /api/nominations, and its words in a page's language (the §8 messages among them). */
import { wordsUnder, type Translate } from './i18n/translator';
import { nominationSchema, type Nomination } from './schemas';

const wordKeys = [
  'eyebrow',
  'title',
  'step1Title',
  'step1Body',
  'step2Title',
  'step2Body',
  'step3Title',
  'step3Body',
  'book',
  'newTab',
  'formTitle',
  'schoolName',
  'city',
  'yourName',
  'email',
  'childGrade',
  'sendTo',
  'required',
  'invalidEmail',
  'submit',
  'submitting',
  'thanksTitle',
  'another',
  'successTitle',
  'success',
  'failureTitle',
  'failure',
] as const;

/** Everything the nomination band says, in one language (content/i18n/{locale}/homeBands.yaml's `nomination`). */
export type NominationWords = Record<(typeof wordKeys)[number], string>;

/** The words a page hands its NominationSection. */
export const nominationWords = (t: Translate): NominationWords => wordsUnder(t, 'homeBands.nomination', wordKeys);

export type NominationResult =
  | { ok: true; id?: string }
  | { ok: false; kind: 'invalid'; fieldErrors: Partial<Record<keyof Nomination, string>> }
  | { ok: false; kind: 'failed'; message: string };

/** Reads the form's values, validates them with the shared schema (each problem in `problems`, the page's words), then posts them. */
export async function submitNomination(
  input: Record<string, unknown>,
  problems: Pick<NominationWords, 'required' | 'invalidEmail'>,
  fetchImpl: typeof fetch = fetch,
): Promise<NominationResult> {
  // Only the six fields of the schema are sent, whatever else the form carries.
  const fields = Object.keys(nominationSchema.shape) as Array<keyof Nomination>;
  const parsed = nominationSchema.safeParse(Object.fromEntries(fields.map((field) => [field, input[field]])));
  if (!parsed.success) {
    const fieldErrors: Partial<Record<keyof Nomination, string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof Nomination | undefined;
      if (field && !fieldErrors[field]) fieldErrors[field] = field === 'email' ? problems.invalidEmail : problems.required;
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
