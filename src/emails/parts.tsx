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

/** A button, and the same link written out beneath it for mail clients that show no buttons. */
export function Action({ label, url }: { label: string; url: string }) {
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
      <Text style={{ color: theme.muted, fontSize: '13px', lineHeight: '20px', margin: '0 0 8px', wordBreak: 'break-all' }}>
        Or open this link:{' '}
        <Link href={url} style={{ color: theme.brand }}>
          {url}
        </Link>
      </Text>
    </>
  );
}
