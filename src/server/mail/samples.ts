/**
 * Every email the site sends, composed with sample data: what the admin page previews, and what the
 * tests send over the wire to check headers, parts, DKIM and spam scores. The samples go through the
 * same compose functions, words and templates as the real emails; only the people are made up.
 */
import { site } from '../../config/site';
import { generateEmail } from '../../lib/shared/email/template';
import { dayInWords } from '../dates';
import { outcomeText } from '../../lib/shared/school-page-words';
import { currentLinks } from '../letter/drafts';
import { sitePage } from '../links';
import { serverEnv } from '../env';
import { letters } from '../letter/bodies';
import { composeDigest, composeEmail, composeLetter, organisationSender, type Rendered } from './compose';
import type { EmailContent } from './queue';
import { fromName } from './senders';
import { kindRules, type EmailKind } from './states';

export interface SampleEmail {
  kind: EmailKind;
  label: string;
  to: string;
  content: EmailContent;
}

const parent = { name: 'Ana Lopez', email: 'ana.lopez@example.org' };
const school = { name: 'Oakwood Academy', contact: 'Dr. Patel', email: 'head@oakwood.example' };

/**
 * A sample link on this site (its token is made up: it opens the page's "not valid" answer). A
 * whole address is a link without a token, as the real email has (the abuse alert's admin page).
 */
const sampleLink = (path: string) => (path.startsWith('http') ? path : `${serverEnv.siteOrigin}${path}?token=sample`);

export async function sampleEmails(now = new Date()): Promise<SampleEmail[]> {
  const expires = dayInWords(new Date(now.getTime() + 3 * 24 * 3600_000));
  const data = {
    parentFullName: parent.name,
    parentEmail: parent.email,
    childFullName: 'Leo Lopez',
    childGrade: '5th grade',
    schoolName: school.name,
    schoolContactName: school.contact,
    schoolContactEmail: school.email,
  };
  const [letter] = await letters();
  const generated = generateEmail(data, currentLinks(), letter!, { ownWords: 'Leo finishes his maths in ten minutes and then waits for the others.' });
  const yourData = { label: 'Your data (see, download or delete it)', url: sampleLink('/your-data') };
  const stop = { label: 'Stop emails about your letter', url: sampleLink('/school-updates/stop') };
  const reasonLetter = `You asked ${site.name} to send a letter to ${school.name} in your name.`;
  const org = organisationSender();
  const content = (rendered: Rendered, extra: Partial<EmailContent> = {}): EmailContent => ({
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    from: org,
    lang: 'en',
    ...extra,
  });
  const toParent = async (
    kind: Exclude<EmailKind, 'school_letter' | 'school_digest'>,
    values: Record<string, string>,
    actionPath: string | undefined,
    reason: string,
    footer = [yourData],
  ) => ({
    kind,
    label: kindRules[kind].label,
    to: parent.email,
    content: content(
      await composeEmail(kind, values, { ...(actionPath ? { actionUrl: sampleLink(actionPath) } : {}), reason, footerLinks: footer }),
      kindRules[kind].unsubscribe ? { unsubscribeUrl: stop.url } : {},
    ),
  });
  const names = { parent: parent.name, school: school.name, contact: school.contact };
  const samples: SampleEmail[] = [
    await toParent(
      'confirmation',
      { ...names, expires },
      '/confirm-send',
      `Someone asked ${site.name} to send a letter to a school in the name of this address. Nothing is sent unless you confirm.`,
    ),
    await toParent(
      'reminder',
      { ...names, expires },
      '/confirm-send',
      `Someone asked ${site.name} to send a letter to a school in the name of this address. Nothing is sent unless you confirm.`,
    ),
    await toParent(
      'refusal',
      {
        ...names,
        reason: `You already wrote to ${school.name} on ${dayInWords(now)} through our platform, and it sends one letter from each parent to a school contact.`,
      },
      '/confirm-send',
      reasonLetter,
    ),
    await toParent('follow_up', { ...names, sent: dayInWords(now) }, '/school-answer', reasonLetter, [yourData, stop]),
    await toParent('second_follow_up', { ...names, sent: dayInWords(now) }, '/school-answer', reasonLetter, [yourData, stop]),
    await toParent(
      'school_update',
      { ...names, outcome: `${outcomeText(school.name, 'meeting')}, a parent who wrote to them tells us.` },
      '/schools/oakwood-academy',
      reasonLetter,
      [yourData, stop],
    ),
    {
      ...(await toParent(
        'data_link',
        { expires: dayInWords(new Date(now.getTime() + 24 * 3600_000)) },
        '/your-data',
        `Someone asked ${site.name} for a link to the data it keeps about this address. It was sent to this address only.`,
        [],
      )),
    },
    {
      ...(await toParent(
        'staff_invitation',
        { role: 'staff', inviter: 'Maria Chen', expires },
        '/webhook-config',
        `Someone on the ${site.name} team invited this address to the admin page.`,
        [],
      )),
      to: 'new.colleague@example.org',
    },
    {
      ...(await toParent(
        'abuse_alert',
        { what: 'The network 203.0.113.0/24', count: '48', usual: '0.3', ratio: '160' },
        sitePage('/webhook-config'),
        `You are an owner of the ${site.name} site, and its abuse watch saw a burst of requests.`,
        [],
      )),
      to: 'owner@example.org',
    },
    await toParent('delivery_failure', { ...names, address: school.email }, '/letter-address', reasonLetter),
    await toParent(
      'letter_not_sent',
      { ...names, reason: `${school.name} asked its mail provider not to receive email from us, so we stopped your letter before it went.` },
      '/confirm-send',
      reasonLetter,
    ),
    await toParent(
      'self_report',
      { ...names, expires },
      '/confirm-send',
      `Someone told ${site.name} that this address sent a letter to a school. Nothing is recorded unless you confirm.`,
      [],
    ),
    await toParent('digest_notice', { ...names, count: '4' }, '/schools/oakwood-academy', reasonLetter, [yourData, stop]),
    {
      ...(await toParent('ambassador_link', { name: 'Sam Rivera' }, '/ambassadors', `You are a ${site.name} Parent Ambassador.`, [])),
      to: 'sam.rivera@example.org',
    },
  ];
  const letterEmail = await composeLetter({ subject: generated.subject, body: generated.body, parentName: parent.name });
  samples.push({
    kind: 'school_letter',
    label: kindRules.school_letter.label,
    to: school.email,
    content: content(letterEmail, { from: { name: fromName(parent.name), address: org.address }, replyTo: { name: parent.name, address: parent.email } }),
  });
  const digest = await composeDigest({
    school: school.name,
    change: `With these, 12 parents of ${school.name} have now written to you.`,
    letters: [
      {
        parentName: parent.name,
        subject: generated.subject,
        body: generated.body,
        replyUrl: `mailto:${parent.email}?subject=${encodeURIComponent(`Re: ${generated.subject}`)}`,
      },
      {
        parentName: 'Sam Rivera',
        subject: generated.subject,
        body: generated.body.replaceAll(parent.name, 'Sam Rivera'),
        replyUrl: `mailto:sam.rivera@example.org?subject=${encodeURIComponent(`Re: ${generated.subject}`)}`,
      },
    ],
    quotes: [{ text: 'My son finishes his maths in ten minutes and then waits for the others.', by: 'Sam' }],
  });
  samples.push({ kind: 'school_digest', label: kindRules.school_digest.label, to: school.email, content: content(digest) });
  return samples;
}
