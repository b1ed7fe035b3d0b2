/**
 * The site's emails to one person: a heading, the words of content/emails/{kind}.yaml (filled in),
 * and at most one button. Confirmation links, reminders, follow-ups, updates, data links,
 * invitations and notices all read this way.
 */
import type { MailWords } from '../lib/shared/email/mail-words';
import { Layout, type FooterLink } from './Layout';
import { Action, Paragraphs, Title } from './parts';

export interface ActionEmailProps {
  organisation: string;
  words: MailWords;
  /** The button's link; the words' `action` is its label. */
  actionUrl?: string;
  reason: string;
  footerLinks?: FooterLink[];
  /** The language of the words ("en" unless the person wrote in another). */
  lang?: string;
}

export function ActionEmail({ organisation, words, actionUrl, reason, footerLinks, lang = 'en' }: ActionEmailProps) {
  return (
    <Layout organisation={organisation} preview={words.preview} reason={reason} links={footerLinks} lang={lang}>
      <Title>{words.heading}</Title>
      <Paragraphs items={words.paragraphs} />
      {actionUrl && words.action ? <Action label={words.action} url={actionUrl} lang={lang} /> : null}
    </Layout>
  );
}
