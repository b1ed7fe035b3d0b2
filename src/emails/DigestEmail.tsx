/**
 * Several parents' letters to one school in one email (SCHOOL_DELIVERY=digest): the count, the
 * change since the first letter, a few words parents let us share, and each letter whole with a
 * link that replies to its parent.
 */
import { Hr } from '@react-email/hr';
import { Link } from '@react-email/link';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { MailWords } from '../lib/shared/email/mail-words';
import { Layout, type FooterLink } from './Layout';
import { linkStyle, Paragraphs, Title } from './parts';
import { theme } from './theme';

export interface DigestLetter {
  parentName: string;
  subject: string;
  body: string;
  /** mailto: the parent, with the letter's subject. */
  replyUrl: string;
}

export interface DigestEmailProps {
  organisation: string;
  words: MailWords;
  letters: DigestLetter[];
  /** Words parents wrote and staff chose to share (first names only). */
  quotes?: { text: string; by: string }[];
  reason: string;
  footerLinks?: FooterLink[];
}

const letterText = { color: theme.ink, fontSize: '15px', lineHeight: '23px', margin: '0 0 12px', whiteSpace: 'pre-line' as const };

export function DigestEmail({ organisation, words, letters, quotes = [], reason, footerLinks }: DigestEmailProps) {
  return (
    <Layout organisation={organisation} preview={words.preview} reason={reason} links={footerLinks}>
      <Title>{words.heading}</Title>
      <Paragraphs items={words.paragraphs} />
      {quotes.map((quote, index) => (
        <Text
          key={`q${index}`}
          style={{ borderLeft: `3px solid ${theme.line}`, color: theme.inkSoft, fontStyle: 'italic', margin: '0 0 12px', paddingLeft: '12px' }}
        >
          “{quote.text}” ({quote.by})
        </Text>
      ))}
      {letters.map((letter, index) => (
        <Section key={index}>
          <Hr style={{ borderColor: theme.line, margin: '24px 0 16px' }} />
          <Text style={{ ...letterText, fontWeight: 700 }}>
            {index + 1}. From {letter.parentName}: {letter.subject}
          </Text>
          {letter.body.split(/\n{2,}/).map((text, part) => (
            <Text key={part} style={letterText}>
              {text}
            </Text>
          ))}
          <Text style={letterText}>
            Reply to {letter.parentName}:{' '}
            <Link href={letter.replyUrl} style={linkStyle}>
              {letter.replyUrl}
            </Link>
          </Text>
        </Section>
      ))}
    </Layout>
  );
}
