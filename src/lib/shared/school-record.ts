/**
 * Known schools, as the server, the admin page and the email form's suggestions share them: the
 * shape of a school record (its leaders, hours, holidays and the evidence staff relied on), how a
 * name is folded for search and made into a link, and the words of each status.
 *
 * A school is a record staff verify (src/server/schools): only a verified school has a page, a
 * count, outcomes, a digest and share links, and only its addresses are offered to other parents.
 * A school a parent types is a proposal until staff verify it.
 */
import { z } from 'zod';
import { FREE_MAIL } from './answer-kinds';
import { lineProblem, namesOrganisation, fieldMessages, NAME_MAX, SCHOOL_MAX, PLACE_MAX } from './email/fields';

export const schoolStatuses = ['proposed', 'verified', 'retired'] as const;
export type SchoolStatus = (typeof schoolStatuses)[number];
export const schoolSources = ['nomination', 'letter', 'staff', 'import'] as const;
export type SchoolSource = (typeof schoolSources)[number];

export const statusLabels: Record<SchoolStatus, string> = { proposed: 'Proposed', verified: 'Verified', retired: 'Retired' };
export const sourceLabels: Record<SchoolSource, string> = { nomination: 'A nomination', letter: 'A parent’s letter', staff: 'Staff', import: 'A CSV import' };
export const evidenceKinds = ['website', 'reply', 'note'] as const;
export const evidenceLabels: Record<(typeof evidenceKinds)[number], string> = {
  website: 'The school’s website lists the address',
  reply: 'A reply came from the address',
  note: 'A note (how staff know)',
};

/** Letters and digits only, lower case, accents and look-alikes as the plain letter: what search compares. */
export function foldName(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/ {2,}/g, ' ');
}

/** The readable part of a page's link: the school's name in plain letters ("lakeside-school"), never empty. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'school';
}

/** A name as every name the site sends must be: one line, no link, address, markup, phone number or the organisation's name. */
const nameField = (max: number, label: string, required = true) =>
  z
    .string()
    .max(max * 2)
    .superRefine((value, context) => {
      const line = value.normalize('NFKC').trim();
      if (!line) {
        if (required) context.addIssue({ code: 'custom', message: `Please give the ${label}.` });
        return;
      }
      const problem = lineProblem(line, max) ?? (namesOrganisation(line) ? fieldMessages.organisationSchool : undefined);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => value.normalize('NFKC').replace(/ {2,}/g, ' ').trim());

export const schoolNameSchema = nameField(SCHOOL_MAX, 'school’s name');
export const cityNameSchema = nameField(PLACE_MAX, 'city', false);

const address = z
  .string()
  .trim()
  .max(254)
  .transform((value) => value.normalize('NFKC').trim().toLowerCase())
  .pipe(z.email({ message: 'Enter an email address, like head@school.org.' }));

export const leaderSchema = z.object({
  name: nameField(NAME_MAX, 'leader’s name', false),
  role: nameField(60, 'role', false),
  address,
});
export type Leader = z.infer<typeof leaderSchema>;

const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Write a time as 08:00.');

export const hoursSchema = z
  .object({
    days: z.array(z.number().int().min(0).max(6)).min(1, 'Choose at least one day.').max(7),
    opens: clock,
    closes: clock,
  })
  .refine((hours) => hours.opens < hours.closes, { message: 'The office must close after it opens.', path: ['closes'] })
  .transform((hours) => ({ ...hours, days: [...new Set(hours.days)].sort() }));
export type SchoolHours = z.infer<typeof hoursSchema>;

export const DEFAULT_HOURS: SchoolHours = { days: [1, 2, 3, 4, 5], opens: '08:00', closes: '16:00' };

export const evidenceSchema = z.object({
  kind: z.enum(evidenceKinds, { message: 'Choose what you relied on.' }),
  detail: z.string().trim().min(3, 'Say what you checked (the page, the reply, how you know).').max(500),
});
export type Evidence = z.infer<typeof evidenceSchema>;

const timeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      return /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone);
    } catch {
      return false;
    }
  }, 'Choose a time zone such as America/New_York.');

const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'Write a domain such as school.org.')
  // A free mail provider's domain is everyone's: listing it would make every address there the school's.
  .refine((name) => !FREE_MAIL.has(name), 'A free mail provider’s domain (gmail.com and the like) is not the school’s own domain.');

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Write a date as 2026-12-24.');

/** What staff write about a school (create, edit). Addresses of leaders must be unique on the record. */
export const schoolInputSchema = z
  .object({
    name: schoolNameSchema,
    city: cityNameSchema.optional(),
    leaders: z.array(leaderSchema).min(1, 'Add the address parents write to.').max(10),
    emailDomains: z.array(domain).max(10).default([]),
    website: z.string().trim().max(200).optional(),
    timeZone,
    hours: hoursSchema.default(DEFAULT_HOURS),
    holidays: z.array(isoDay).max(60).default([]),
  })
  .strict()
  .superRefine((input, context) => {
    const seen = new Set<string>();
    input.leaders.forEach((leader, index) => {
      if (seen.has(leader.address)) context.addIssue({ code: 'custom', message: 'This address is listed twice.', path: ['leaders', index, 'address'] });
      seen.add(leader.address);
    });
  });
export type SchoolInput = z.infer<typeof schoolInputSchema>;

/** A school as the admin page and the suggestions read it. */
export interface SchoolView {
  id: string;
  name: string;
  slug: string;
  city: string | null;
  status: SchoolStatus;
  source: SchoolSource;
  pageKey: string;
  leaders: Leader[];
  emailDomains: string[];
  website: string | null;
  timeZone: string;
  hours: SchoolHours;
  holidays: string[];
  evidence: Evidence | null;
  mergedInto: string | null;
  createdAt: string;
  updatedAt: string;
  verifiedAt: string | null;
  verifiedBy: string | null;
}

/** One suggestion of the email form's school field: the school and the people parents write to. */
export interface SchoolSuggestion {
  /** The school's page key: what the form posts back (`_school`) so the server fills the address from the record. */
  key: string;
  name: string;
  city: string | null;
  leaders: Array<{ name: string; role: string; address: string }>;
}

/** The longest query a suggestion search reads. */
export const SUGGEST_QUERY_MAX = 80;
