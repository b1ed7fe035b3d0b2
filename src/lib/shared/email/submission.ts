/**
 * Reads a submitted email-generation or referral form: HubSpot field names become the email data
 * (names in `src/config/forms.ts`), and the send choice becomes a yes/no.
 */
import { emailFormFields, sendChoiceField } from '../../../config/forms';
import { referralDataSchema, type ReferralData } from '../schemas';
import type { SubmittedValues } from '../hubspot-values';

export interface EmailSubmission {
  data: ReferralData;
  /** The parent chose "Send via our platform". */
  wantsPlatformSend: boolean;
}

/** Normalises a choice for comparison: HubSpot option labels vary in case and spacing. */
const normalise = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase();

export function isPlatformChoice(value: string | undefined): boolean {
  return !!value && normalise(value) === normalise(sendChoiceField.platformValue);
}

export function readEmailSubmission(values: SubmittedValues): EmailSubmission {
  const raw = Object.fromEntries(
    Object.entries(emailFormFields).map(([key, field]) => [key, Object.hasOwn(values, field) ? (values[field] ?? '').trim() : '']),
  );
  // Over-long values are cut rather than refused: the parent still gets an email to edit.
  const bounded = Object.fromEntries(
    Object.entries(raw).map(([key, value]) => {
      const max = referralDataSchema.shape[key as keyof ReferralData].unwrap().maxLength;
      return [key, max === null ? value : value.slice(0, max)];
    }),
  );
  return {
    data: referralDataSchema.parse(bounded),
    wantsPlatformSend: isPlatformChoice(Object.hasOwn(values, sendChoiceField.name) ? values[sendChoiceField.name] : undefined),
  };
}

/** Sending through the platform needs the parent's own address (the CRM contact is found by it). */
export function shouldSendAutomatically(submission: EmailSubmission): boolean {
  return submission.wantsPlatformSend && submission.data.parentEmail.trim() !== '';
}
