/** The pieces the site's emails are made of: a heading, paragraphs, one button with its link written out. */
import { Button } from '@react-email/button';
import { Heading } from '@react-email/heading';
import { Link } from '@react-email/link';
import { Text } from '@react-email/text';
import { theme } from './theme';

export function Title({ children }: { children: string }) {
  return (
    <Heading as="h1" style={{ color: theme.ink, fontSize: '22px', lineHeight: '30px', margin: '0 0 16px' }}>
      {children}
    </Heading>
  );
}

export function Paragraphs({ items }: { items: string[] }) {
  return (
    <>
      {items.map((text, index) => (
        <Text key={index} style={{ color: theme.inkSoft, fontSize: '16px', lineHeight: '25px', margin: '0 0 14px', whiteSpace: 'pre-line' }}>
          {text}
        </Text>
      ))}
    </>
  );
}

/**
 * A link written out: a long address (a token) breaks anywhere, so it never makes the email wider
 * than a phone's screen; the words around it break only between words.
 */
export const linkStyle = { color: theme.brand, wordBreak: 'break-all' } as const;

/** The words before a button's link written out, in the email's language. */
const openLinkWords: Record<string, string> = { en: 'Or open this link:', es: 'O abra este enlace:' };

/** A button, and the same link written out beneath it for mail clients that show no buttons. */
export function Action({ label, url, lang = 'en' }: { label: string; url: string; lang?: string }) {
  return (
    <>
      <Button
        href={url}
        style={{
          backgroundColor: theme.accent,
          borderRadius: '999px',
          color: '#ffffff',
          display: 'inline-block',
          fontSize: '16px',
          fontWeight: 600,
          margin: '8px 0 12px',
          padding: '12px 24px',
          textDecoration: 'none',
        }}
      >
        {label}
      </Button>
      <Text style={{ color: theme.muted, fontSize: '13px', lineHeight: '20px', margin: '0 0 8px' }}>
        {openLinkWords[lang] ?? openLinkWords.en}{' '}
        <Link href={url} style={linkStyle}>
          {url}
        </Link>
      </Text>
    </>
  );
}
