/**
 * The school email a parent's accepted email-form submission makes. The forms function stores a
 * draft for each such submission and hands the submitting browser a one-time send token; the
 * store keeps only its hash. "Send via our platform" names the draft and the token, never text:
 * the server composes what it sends from the draft with the template the dialog's preview uses.
 *
 * Keys in the `outbox` store: `drafts/{submissionId}`.
 */
import { emailFormFields, sendChoiceField } from '../config/forms';
import { publicEnv } from '../config/env';
import { referralDataSchema, type ReferralData } from '../lib/schemas';
import { generateEmail, type EmailLinks, type GeneratedEmail } from '../lib/email/template';
import { isPlatformChoice } from '../lib/email/submission';
import { store, withStore } from './store';
import { hashSecret, newSecret } from './tokens';

export interface EmailDraft {
  /** The form submission's id. */
  id: string;
  purpose: string;
  data: ReferralData;
  /** The parent chose "Send via our platform" in the form. */
  wantsPlatformSend: boolean;
  /** The note written in the form, if any (the dialog may change it before sending). */
  note: string;
  /** The links the email carries, fixed when the draft is made so the preview and the send agree. */
  links: EmailLinks;
  tokenHash: string;
  createdAt: string;
  /** Set once, when the parent asks the platform to send: the message made from this draft. */
  messageId?: string;
  /** Set when the parent says they sent it themselves (copy or mail app). */
  selfSentMessageId?: string;
}

/** Drafts no longer needed (unsent after this long) are removed by the purge. */
export const DRAFT_RETENTION_MS = 30 * 24 * 3600_000;

const drafts = () => store('outbox', { strong: true });
export const draftKey = (id: string) => `drafts/${id}`;

/** The email data of an accepted email-form submission (HubSpot field names → template fields). */
export function emailDataOf(values: Record<string, string>): ReferralData {
  const raw = Object.fromEntries(Object.entries(emailFormFields).map(([key, field]) => [key, (values[field] ?? '').trim()]));
  return referralDataSchema.parse(raw);
}

export function currentLinks(): EmailLinks {
  return { videoUrl: publicEnv.emailVideoUrl, bookingUrl: publicEnv.bookingUrl };
}

export function composeDraft(draft: Pick<EmailDraft, 'data' | 'links'>, note: string): GeneratedEmail {
  return generateEmail(draft.data, draft.links, { note });
}

/**
 * Stores the draft of an accepted submission and returns the one-time send token (only this
 * answer ever holds it) with the email as composed now.
 */
export async function createDraft(input: { id: string; purpose: string; values: Record<string, string>; note?: string; now?: Date }) {
  const token = newSecret();
  const draft: EmailDraft = {
    id: input.id,
    purpose: input.purpose,
    data: emailDataOf(input.values),
    wantsPlatformSend: isPlatformChoice(input.values[sendChoiceField.name]),
    note: input.note ?? '',
    links: currentLinks(),
    tokenHash: hashSecret(token),
    createdAt: (input.now ?? new Date()).toISOString(),
  };
  await withStore(() => drafts().setJSON(draftKey(draft.id), draft, { onlyIfNew: true }));
  return { token, draft, email: composeDraft(draft, draft.note) };
}

export async function readDraft(id: string): Promise<{ draft: EmailDraft; etag: string } | undefined> {
  const found = await withStore(() => drafts().getWithMetadata(draftKey(id), { type: 'json' }));
  return found ? { draft: found.data as EmailDraft, etag: found.etag ?? '' } : undefined;
}

/** Records a change to a draft only if nobody changed it since `etag` was read; false otherwise. */
export async function updateDraft(draft: EmailDraft, etag: string): Promise<boolean> {
  const { modified } = await withStore(() => drafts().setJSON(draftKey(draft.id), draft, { onlyIfMatch: etag }));
  return modified;
}

/** What the browser gets about its draft: the email, its links and the token to send it. */
export function draftAnswer(draft: EmailDraft, token: string, email: GeneratedEmail) {
  return { id: draft.id, token, data: draft.data, links: draft.links, note: draft.note, wantsPlatformSend: draft.wantsPlatformSend, email };
}
