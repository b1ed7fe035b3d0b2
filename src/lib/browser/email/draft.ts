/**
 * The draft as the forms function answers it (src/server/letter/drafts.ts): what the email flow
 * (flow.ts) hands to the dialog and the store (src/stores/emailDraft.ts) builds on.
 */
import type { ReferralData } from '../../shared/schemas';
import type { EmailLinks, Letter } from '../../shared/email/template';

export interface DraftAnswer {
  id: string;
  /** Empty when the form was HubSpot's embed: the platform cannot send that one. */
  token: string;
  data: ReferralData;
  links: EmailLinks;
  /** The letter the server picked for this parent (the school's next in rotation). */
  letter: Letter;
  /** The answer to "What would this change for your child?", fixed by the form. */
  ownWords: string;
  note: string;
  /** "You may quote my words on our school's page": as the form left it, changeable until sending. */
  wordsConsent: boolean;
  wantsPlatformSend: boolean;
}
