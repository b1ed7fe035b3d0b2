/**
 * The email dialog on /es/lead-the-change speaks the page's language (issue 48): its heading,
 * buttons, labels, the close button's name and the note's problems in Spanish, at 390 and 1280 px,
 * with focus moving into it, Escape closing it and focus coming back, and nothing for axe.
 */
import { expect as baseExpect, test } from './fixtures';
import { runMark } from './helpers';
import { axeViolations, desktop, phone } from './widths';

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

for (const size of [phone, desktop]) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: size });

    // At 390 px in the gate; at 1280 px in the full run (the dialog is the same column at both widths:
    // covering.spec.ts, "the letter reads in the page's own flow").
    test(
      'the dialog around the letter is in Spanish, and works by keyboard',
      size.width === phone.width ? {} : { tag: '@full' },
      async ({ page, consoleErrors }, testInfo) => {
        const run = runMark();
        await page.goto('/es/lead-the-change');
        const form = page.locator('#email-form');
        await form.getByLabel(/^Su nombre completo/).fill('Ana López');
        await form.getByLabel(/^Su correo electrónico/).fill(`madre-dialogo-${run}@example.org`);
        await form.getByLabel(/^Nombre completo de su hijo o hija/).fill('Leo López');
        await form.getByLabel(/^Grado de su hijo o hija/).fill('5');
        await form.getByLabel(/^Nombre de la escuela/).fill('Colegio Las Palmas');
        await form.getByLabel(/^Nombre del contacto en la escuela/).fill('Dra. Ruiz');
        await form.getByLabel(/^Correo electrónico del contacto en la escuela/).fill(`direccion@colegio-${run}.edu`);
        await form.getByLabel('Lo enviaré yo').check();
        await form.getByRole('button', { name: 'Preparar mi correo' }).click();

        const dialog = page.getByRole('dialog', { name: 'Su correo está listo' });
        await expect(dialog).toBeVisible();
        // Focus is inside the dialog once it opens.
        await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(true);

        await expect(dialog.getByRole('heading', { level: 2 })).toHaveText('Su correo está listo');
        await page.screenshot({ path: testInfo.outputPath(`es-dialog-top-${size.width}.png`) });
        await expect(dialog.getByRole('button', { name: 'Cerrar el diálogo' })).toBeVisible();
        await expect(dialog.getByRole('button', { name: 'Copiar' })).toBeVisible();
        await expect(dialog.getByRole('button', { name: 'Corregir los datos' })).toBeVisible();
        await expect(dialog.getByRole('heading', { name: 'Envíelo usted' })).toBeVisible();
        await expect(dialog.getByRole('heading', { name: 'O deje que lo enviemos nosotros' })).toBeVisible();
        await expect(dialog.getByRole('link', { name: 'Abrir en mi aplicación de correo' })).toBeVisible();
        // The mail-app link carries the letter (the parent sends it themselves here, so it stays).
        const mailto = await dialog.getByRole('link', { name: 'Abrir en mi aplicación de correo' }).getAttribute('href');
        expect(decodeURIComponent(mailto ?? '')).toMatch(/^mailto:direccion@.*Dra\. Ruiz/s);
        await expect(dialog.getByRole('link', { name: 'Gmail (se abre en una pestaña nueva)' })).toBeVisible();
        await expect(dialog.getByRole('button', { name: 'Enviar por nuestra plataforma' })).toBeVisible();
        await expect(dialog.getByText('Para:', { exact: true })).toBeVisible();
        await expect(dialog.getByText('0 de 600 caracteres')).toBeVisible();
        // The letter is English by default (for the school's leadership), and says so with `lang`.
        await expect(dialog.getByTestId('email-body')).toHaveAttribute('lang', 'en');
        await expect(dialog.getByTestId('email-body')).toContainText('Dra. Ruiz');
        // Nothing of the dialog's own is left in English, and no key shows.
        const own = await dialog.evaluate((element) => {
          const copy = element.cloneNode(true) as HTMLElement;
          for (const letter of copy.querySelectorAll('[lang="en"]')) letter.remove();
          return copy.textContent ?? '';
        });
        expect(own).not.toMatch(/Your Email is Ready|Send it yourself|Or let us send it|Add a personal note|Copy\b|Edit details|characters|Your data/);
        expect(own).not.toMatch(/emailDialog\.|\{\w+\}/);

        // A problem with the note is said in Spanish, at once.
        const note = dialog.getByLabel(/^Agregue una nota personal/);
        await note.fill('Vean https://example.org');
        await expect(dialog.getByRole('alert')).toHaveText(/^Por favor, no ponga enlaces en su nota/);
        await note.fill('Gracias por leer.');
        await expect(dialog.getByRole('alert')).toHaveCount(0);

        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
        await page.screenshot({ path: testInfo.outputPath(`es-dialog-${size.width}.png`) });
        await dialog.evaluate((element) => element.scrollTo(0, element.scrollHeight));
        await page.screenshot({ path: testInfo.outputPath(`es-dialog-end-${size.width}.png`) });
        expect(await axeViolations(page)).toEqual([]);

        // Escape closes it, and focus comes back to the button that opens it again.
        await page.keyboard.press('Escape');
        await expect(dialog).toBeHidden();
        const reopen = page.getByRole('button', { name: 'Ver su correo' });
        await expect(reopen).toBeFocused();
        await expect(page.getByText('Su correo a la escuela está listo para enviar.')).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`es-dialog-closed-${size.width}.png`) });
        expect(await axeViolations(page)).toEqual([]);

        // And the keyboard opens it again.
        await page.keyboard.press('Enter');
        await expect(dialog).toBeVisible();
        await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(true);
        expect(consoleErrors).toEqual([]);
      },
    );
  });
}
