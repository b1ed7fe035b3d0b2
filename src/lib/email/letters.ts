/**
 * The bodies of the school email (`content/letters/*.yaml`, the `letters` collection). Parents who
 * write to one school get them in rotation (src/server/letters.ts), so the school does not read the
 * same text twice in a row. A letter is three texts around fixed parts the template keeps: the
 * greeting, the parent's own words (right after the introduction) and the signature.
 *
 * Each text names the values it needs in braces ("{school}"). The schema holds every variant to
 * the rules of the template: each placeholder where the template needs it, no other, plain text
 * with no link, address or markup of its own (the links come in through {video} and {booking}),
 * and within its length; a variant that breaks one fails the build naming its file and the field.
 */
import { z } from 'zod';
import { forbiddenContent } from './detect';
import { LETTER_PLACEHOLDER, type LetterPlaceholder } from './template';

/** What each placeholder stands for in a letter's text. */
export const letterPlaceholders: Record<LetterPlaceholder, string> = {
  parent: "the parent's full name",
  child: "the child's full name",
  grade: 'the grade, as "5th grade" or "kindergarten"',
  school: "the school's name",
  video: 'the link to the 30-second overview video',
  booking: 'the link where the school books a call',
} as const;


/** The longest introduction, main text and closing (today's are about 230, 800 and 200). */
export const LETTER_LIMITS = { introduction: 500, body: 1500, closing: 400 } as const;

/** Which placeholders each text must carry: the template's, in the part where it has them. */
export const requiredPlaceholders = {
  introduction: ['parent', 'child', 'grade', 'school'],
  body: ['video', 'booking'],
  closing: [],
} as const satisfies Record<keyof typeof LETTER_LIMITS, readonly LetterPlaceholder[]>;

const PLACEHOLDER = LETTER_PLACEHOLDER;

/** The text with every placeholder taken out, as the content checks read it. */
const withoutPlaceholders = (text: string) => text.replace(PLACEHOLDER, ' ');

function letterText(part: keyof typeof LETTER_LIMITS, description: string) {
  const max = LETTER_LIMITS[part];
  return z
    .string()
    .trim()
    .min(20)
    .max(max)
    .describe(description)
    .superRefine((text, context) => {
      for (const [, name] of text.matchAll(PLACEHOLDER)) {
        if (!(name! in letterPlaceholders)) {
          context.addIssue({ code: 'custom', message: `"{${name}}" is not a placeholder; use one of ${Object.keys(letterPlaceholders).map((key) => `{${key}}`).join(', ')}` });
        }
      }
      for (const name of requiredPlaceholders[part]) {
        if (!text.includes(`{${name}}`)) context.addIssue({ code: 'custom', message: `must contain {${name}} (${letterPlaceholders[name]})` });
      }
      if (/[{}]/.test(text.replace(PLACEHOLDER, ''))) context.addIssue({ code: 'custom', message: 'a "{" or "}" outside a placeholder' });
      const forbidden = forbiddenContent(withoutPlaceholders(text));
      if (forbidden) {
        const what = { link: 'a link (the links come in through {video} and {booking})', email: 'an email address', markup: 'HTML or markup' }[forbidden];
        context.addIssue({ code: 'custom', message: `must not contain ${what}` });
      }
    });
}

/** One letter file. The id is its file name. */
export const letterSchema = z.object({
  /** The editors' name for it, e.g. "Two focused hours". Never sent. */
  title: z.string().trim().min(3).max(80),
  /** Its turn in the rotation, 1 first; the first is also the one the page writes itself (HubSpot's embed). */
  order: z.number().int().positive(),
  /** The paragraph after "Dear …,": who writes and why. Must name {parent}, {child}, {grade} and {school}. */
  introduction: letterText('introduction', 'Who writes and why, e.g. "My name is {parent}, and my child, {child}, is in {grade} at {school}. …"'),
  /** The model, the results and the two links. Must carry {video} and {booking}. Blank lines separate paragraphs. */
  body: letterText('body', 'The model, its results and the two links: must carry {video} and {booking}.'),
  /** The last paragraph before "Warm regards,". */
  closing: letterText('closing', 'The last paragraph before "Warm regards,", e.g. "Thank you for your time …"'),
});

export type LetterText = z.infer<typeof letterSchema>;
