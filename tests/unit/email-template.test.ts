import { describe, expect, test } from 'vitest';
import { composeLinks, emailAsText, followUpEmail, emailSubject, generateEmail, placeholders, videoLinkAt } from '../../src/lib/shared/email/template';
import { firstLetter } from './helpers/letters';
import type { EmailData } from '../../src/lib/shared/schemas';

const links = { videoUrl: 'https://www.youtube.com/watch?v=abc123', bookingUrl: 'https://calendly.com/team/intro' };

const full: EmailData = {
  childFullName: 'Maya Lopez',
  childGrade: '5th grade',
  schoolName: 'Oakwood Academy',
  schoolContactEmail: 'head@oakwood.edu',
  schoolContactName: 'Dr. Patel',
  parentFullName: 'Ana Lopez',
  parentEmail: 'ana@example.org',
};

const empty: EmailData = {
  childFullName: '',
  childGrade: '',
  schoolName: '',
  schoolContactEmail: '',
  schoolContactName: '',
  parentFullName: '',
  parentEmail: '',
};

describe('generateEmail', () => {
  test('all filled: every value appears and no placeholder is left', () => {
    const email = generateEmail(full, links, firstLetter);
    expect(email.subject).toBe('How Oakwood Academy can unlock mastery learning for every student');
    expect(email.to).toBe('head@oakwood.edu');
    expect(email.toLine).toBe('Dr. Patel <head@oakwood.edu>');
    expect(email.body.startsWith('Dear Dr. Patel,\n')).toBe(true);
    expect(email.body).toContain('My name is Ana Lopez, and my child, Maya Lopez, is in 5th grade at Oakwood Academy.');
    expect(email.body).toMatch(/Ana Lopez\nParent of Maya Lopez, 5th grade$/);
    for (const placeholder of Object.values(placeholders)) expect(`${email.toLine}${email.subject}${email.body}`).not.toContain(placeholder);
  });

  test('all empty: every placeholder of the specification appears', () => {
    const email = generateEmail(empty, links, firstLetter);
    const all = `${email.toLine}\n${email.subject}\n${email.body}`;
    for (const placeholder of [
      '[School Name]',
      '[Name]',
      '[Your Name]',
      "[Child's Name]",
      "[Child's Grade]",
      '[School Contact Name]',
      '[School Administrator Email]',
    ]) {
      expect(all).toContain(placeholder);
    }
    expect(email.subject).toBe('How [School Name] can unlock mastery learning for every student');
    expect(email.to).toBe('');
    expect(email.toLine).toBe('[School Contact Name] <[School Administrator Email]>');
    expect(email.body.startsWith('Dear [Name],')).toBe(true);
  });

  test.each<[keyof EmailData, string, string]>([
    ['schoolName', '[School Name]', 'Oakwood Academy'],
    ['parentFullName', '[Your Name]', 'Ana Lopez'],
    ['childFullName', "[Child's Name]", 'Maya Lopez'],
    ['childGrade', "[Child's Grade]", '5th grade'],
    ['schoolContactName', '[School Contact Name]', 'Dr. Patel'],
    ['schoolContactEmail', '[School Administrator Email]', 'head@oakwood.edu'],
  ])('a missing %s falls back to %s, others stay', (field, placeholder, value) => {
    const email = generateEmail({ ...full, [field]: '   ' }, links, firstLetter);
    const all = `${email.toLine}\n${email.subject}\n${email.body}`;
    expect(all).toContain(placeholder);
    expect(all).not.toContain(value);
  });

  test('the body carries the model summary, the three results, the decade note and both links', () => {
    const { body } = generateEmail(full, links, firstLetter);
    expect(body).toContain('two focused hours a day');
    expect(body).toContain('• 85% of students show measurable improvement in reading and math within 8 weeks.');
    expect(body).toContain('• Many students progress beyond grade level, especially in math.');
    expect(body).toContain('• Teachers act as mentors and guides while AI guides the pace of each student.');
    expect(body).toContain('tried and refined for over a decade');
    expect(body).toContain('30-second video overview of how it works: https://www.youtube.com/watch?v=abc123&t=10s');
    expect(body).toContain('book a short call with the team here: https://calendly.com/team/intro');
  });

  test('values are used as plain text, exactly as given', () => {
    const email = generateEmail({ ...full, schoolName: "<b>St. Mary's</b> & Co" }, links, firstLetter);
    expect(email.subject).toBe("How <b>St. Mary's</b> & Co can unlock mastery learning for every student");
  });
});

describe('videoLinkAt', () => {
  test.each([
    ['https://www.youtube.com/watch?v=abc', 'https://www.youtube.com/watch?v=abc&t=10s'],
    ['https://youtu.be/abc', 'https://youtu.be/abc?t=10s'],
    ['https://www.youtube.com/watch?v=abc&t=10s', 'https://www.youtube.com/watch?v=abc&t=10s'],
    ['https://www.youtube.com/watch?v=abc&t=42', 'https://www.youtube.com/watch?v=abc&t=42'],
    ['https://cdn.example.org/overview.mp4', 'https://cdn.example.org/overview.mp4#t=10'],
    ['not a url', 'not a url'],
  ])('%s → %s', (input, expected) => {
    expect(videoLinkAt(input)).toBe(expected);
  });
});

describe('emailSubject', () => {
  test.each([
    ['Oakwood', 'How Oakwood can unlock mastery learning for every student'],
    ['', 'How [School Name] can unlock mastery learning for every student'],
    [undefined, 'How [School Name] can unlock mastery learning for every student'],
  ])('%j', (school, subject) => expect(emailSubject(school)).toBe(subject));
});

describe('compose links and clipboard text', () => {
  test('mailto, Gmail and Outlook carry the address, subject and body', () => {
    const email = generateEmail(full, links, firstLetter);
    const { mailto, gmail, outlook } = composeLinks(email);
    expect(mailto.startsWith('mailto:head@oakwood.edu?subject=')).toBe(true);
    const mailParams = new URLSearchParams(mailto.split('?')[1]);
    expect(mailParams.get('subject')).toBe(email.subject);
    expect(mailParams.get('body')).toBe(email.body);
    expect(new URL(gmail).searchParams.get('su')).toBe(email.subject);
    expect(new URL(gmail).searchParams.get('to')).toBe('head@oakwood.edu');
    expect(new URL(outlook).searchParams.get('body')).toBe(email.body);
  });

  test('an address cannot inject extra mailto headers', () => {
    const email = generateEmail({ ...full, schoolContactEmail: 'a@b.org?bcc=evil@x.org' }, links, firstLetter);
    expect(composeLinks(email).mailto).toMatch(/^mailto:a@b\.org%3Fbcc%3Devil@x\.org\?subject=/);
  });

  test('the clipboard text has the To line, the subject and the body', () => {
    const email = generateEmail(full, links, firstLetter);
    expect(emailAsText(email)).toBe(`To: Dr. Patel <head@oakwood.edu>\nSubject: ${email.subject}\n\n${email.body}`);
    // A letter written in Spanish is copied with its labels in Spanish (issue 48).
    expect(emailAsText(email, 'es')).toBe(`Para: Dr. Patel <head@oakwood.edu>\nAsunto: ${email.subject}\n\n${email.body}`);
  });

  test('the follow-up to the school is in the first letter’s language', () => {
    const input = {
      subject: 'S',
      toName: 'Dr. Patel',
      to: 'head@oakwood.edu',
      schoolName: 'Oakwood',
      parentName: 'Ana',
      sentAt: '2026-11-02T12:00:00Z',
      videoUrl: 'https://example.org/v',
    };
    expect(followUpEmail(input).body).toMatch(/^Dear Dr\. Patel,\n\nI wrote to you on November 2 /);
    const spanish = followUpEmail({ ...input, language: 'es' });
    expect(spanish.subject).toBe('Seguimiento: S');
    expect(spanish.body).toMatch(/^Estimado\/a Dr\. Patel:\n\nLe escribí el 2 de noviembre sobre cómo Oakwood /);
    expect(followUpEmail({ ...input, language: 'es', toName: '', parentName: '' }).body).toMatch(/^Estimado\/a \[Nombre\]:[\s\S]*\[Su nombre\]$/);
  });
});
