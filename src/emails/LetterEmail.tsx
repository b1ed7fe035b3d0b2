/**
 * A parent's letter to their school, as the parent previewed it: their words, one paragraph after
 * another, in plain type. It is one-to-one mail from a person, so it looks like one: no button, no
 * banner; the footer only says how it was sent.
 */
import { Body } from '@react-email/body';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Html } from '@react-email/html';
import { Text } from '@react-email/text';
import { theme } from './theme';

export interface LetterEmailProps {
  body: string;
  /** "Sent for Ana Lopez by Mastery Parents. Replies go to Ana." */
  footer: string;
  /** The letter's language ("en" unless the parent wrote it in another). */
  lang?: string;
}

const paragraph = { color: theme.ink, fontFamily: theme.font, fontSize: '15px', lineHeight: '23px', margin: '0 0 14px', whiteSpace: 'pre-line' as const };

export function LetterEmail({ body, footer, lang = 'en' }: LetterEmailProps) {
  return (
    <Html lang={lang} dir="ltr">
      <Head />
      <Body style={{ backgroundColor: '#ffffff', margin: 0, padding: '16px' }}>
        <Container style={{ maxWidth: '620px', margin: '0' }}>
          {body.split(/\n{2,}/).map((text, index) => (
            <Text key={index} style={paragraph}>
              {text}
            </Text>
          ))}
          <Text style={{ ...paragraph, color: theme.muted, fontSize: '12px', marginTop: '24px' }}>{footer}</Text>
        </Container>
      </Body>
    </Html>
  );
}
