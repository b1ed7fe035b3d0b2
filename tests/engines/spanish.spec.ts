/**
 * In Firefox and WebKitGTK, the main flow in Spanish (issue 48): a parent reads /es/lead-the-change,
 * writes with the letter in Spanish and "Send via our platform", confirms from the Spanish email in
 * MailDev on a Spanish page, and the school receives the Spanish letter. The whole flow, with the
 * data pages, is walked in Chromium at 390 px by tests/e2e/spanish-letter.spec.ts.
 */
import { linkTo, waitForEmail } from '../e2e/mail';
import { expect, named, seen, test } from './fixtures';

test('a parent writes, confirms and the school gets the letter, in Spanish', async ({ site }) => {
  const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const parent = `engines-madre-${run}@example.org`;
  const school = `direccion@colegio-${run}.edu`;

  await site.goto('/es/lead-the-change');
  expect(await site.evaluate(() => document.documentElement.lang)).toBe('es');
  expect(await seen(site, 'h1')).toBe('Impulse el cambio');

  const form = '#email-form form[data-native-form]';
  for (const [name, value] of [
    ['full_name', 'Ana López'],
    ['email', parent],
    ['child_full_name', 'Leo López'],
    ['child_grade', '5'],
    ['school_name', 'Colegio Las Palmas'],
    ['school_contact_name', 'Dra. Ruiz'],
    ['school_contact_email', school],
  ] as const)
    await site.type(`${form} [name="${name}"]`, value);
  await site.click(`${form} input[name="choose_how_to_send_your_email"][value="Send via our platform"]`);
  // English is chosen for the school's leadership until the parent picks Spanish.
  expect(await site.evaluate(() => (document.querySelector('#email-form input[name="_letter_locale"]:checked') as HTMLInputElement).value)).toBe('en');
  await site.click(`${form} input[name="_letter_locale"][value="es"]`);
  await site.click(`${form} [data-submit]`);

  // The dialog previews the Spanish letter and, the platform asked, says to check the inbox.
  await expect.poll(() => seen(site, 'dialog[open] [data-testid="email-body"]'), { timeout: 20_000 }).toContain('Estimado/a Dra. Ruiz:');
  expect(await seen(site, 'dialog[open] [data-testid="email-subject"]')).toBe('Cómo Colegio Las Palmas puede ofrecer el aprendizaje por dominio a cada alumno');
  await expect.poll(() => seen(site, '[data-testid="check-inbox"]'), { timeout: 20_000 }).toContain(parent);

  const confirmation = await waitForEmail(parent, { subject: /^Por favor, confirme su correo a / });
  expect(confirmation.text).toContain('Hola, Ana López:');
  await site.goto(linkTo(confirmation, '/confirm-send'));
  expect(await site.evaluate(() => document.documentElement.lang)).toBe('es');
  await expect.poll(() => seen(site, 'h1')).toBe('Confirme su correo a Colegio Las Palmas');
  await site.click(await named(site, 'button', 'Enviar mi correo'));
  await expect.poll(() => seen(site, 'h1'), { timeout: 20_000 }).toMatch(/^Su correo (fue enviado|está confirmado)$/);
  expect(await site.evaluate(() => document.documentElement.lang)).toBe('es');

  const letter = await waitForEmail(school, { runs: true });
  expect(letter.subject).toBe('Cómo nuestra escuela puede ofrecer el aprendizaje por dominio a cada alumno');
  expect(letter.text).toContain('Me llamo Ana López y mi hijo o hija, Leo López, está en 5.º grado en Colegio Las Palmas.');
  expect(letter.replyTo.map((box) => box.address)).toEqual([parent]);
});
