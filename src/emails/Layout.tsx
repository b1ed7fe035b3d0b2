/**
 * The frame of every email the site sends: the organisation's name as text (no image, so it reads
 * the same with images off), the content, and a footer that says who sent it and why, with the
 * links a person needs (their data, a way to stop). No remote image, no tracking pixel, no script.
 */
import { Body } from '@react-email/body';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import type { ReactNode } from 'react';
import { linkStyle } from './parts';
import { theme } from './theme';

export interface FooterLink {
  label: string;
  url: string;
}

export interface LayoutProps {
  organisation: string;
  preview: string;
  /** Why this person gets this email, in one sentence. */
  reason: string;
  links?: FooterLink[];
  lang?: string;
  children: ReactNode;
}

const body = { backgroundColor: theme.canvas, color: theme.ink, fontFamily: theme.font, margin: 0, padding: '24px 0' };
const card = { backgroundColor: '#ffffff', border: `1px solid ${theme.line}`, borderRadius: '12px', margin: '0 auto', maxWidth: '560px', padding: '28px 32px' };
const brandLine = { color: theme.brand, fontSize: '15px', fontWeight: 700, letterSpacing: '0.02em', margin: '0 0 20px' };
const footerText = { color: theme.muted, fontSize: '12px', lineHeight: '18px', margin: '4px 0' };

export function Layout({ organisation, preview, reason, links = [], lang = 'en', children }: LayoutProps) {
  return (
    <Html lang={lang} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
      </Head>
      <Preview>{preview}</Preview>
      <Body style={body}>
        <Container style={card}>
          <Text style={brandLine}>{organisation}</Text>
          {children}
          <Hr style={{ borderColor: theme.line, margin: '28px 0 16px' }} />
          <Section>
            <Text style={footerText}>{reason}</Text>
            {links.map((link) => (
              <Text key={link.url} style={footerText}>
                {link.label}:{' '}
                <Link href={link.url} style={linkStyle}>
                  {link.url}
                </Link>
              </Text>
            ))}
            <Text style={footerText}>{organisation}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
