/**
 * The content editor (/content-editor, Decap CMS). The editing tests run `npm run edit` in a copy
 * of the project (./editor-workspace.ts): what an editor saves through the UI is checked on disk
 * and by a build of the copy. The production page served by `npm start` is
 * ./content-editor-page.spec.ts's.
 *
 * All in the full run (`npm run test:full`, the `@full` tag), to be made whenever the editor's
 * configuration, its widgets or Decap change: the dev server of a copy and Decap's modules under it
 * cost about 130 s of a worker and 60 CPU seconds of the dev server, a sixth of the gate's
 * end-to-end time. The gate checks the configuration the editor is driven by
 * (tests/unit/content-editor-config.test.ts: every field, its pattern and its message, the Spanish
 * side), the files it writes in both languages (content-editor-spanish.test.ts), its build
 * (content-editor-build.test.ts) and the production page. docs/testing.md, "The gate and the full run".
 */
import { devices, type BrowserContext, type Page } from '@playwright/test';
import { load } from 'js-yaml';
import { editorPorts } from '../../playwright.config';
import { expect as baseExpect, test } from './fixtures';
import { axeViolations } from './widths';
import { startEditorWorkspace, type EditorWorkspace } from './editor-workspace';

// The tests drive one editor in turn. Under the dev server Decap's modules load one by one, so a
// visit takes seconds; a wide window shows the preview beside the form.
test.describe.configure({ mode: 'serial', timeout: 120_000 });
const viewport = { width: 1440, height: 900 };
test.use({ viewport, screenshot: 'only-on-failure' });
const expect = baseExpect.configure({ timeout: 20_000 });

let editor: EditorWorkspace;
let originalStats: unknown[];

const faqFile = 'content/faqs/what-does-the-end-to-end-test-ask.mdx';
const statsFile = 'content/stats.yaml';
const newStat = {
  id: 'e2e-figure',
  group: 'home-results',
  target: 12,
  suffix: '%',
  label: 'of families changed this through the editor',
  labelEs: 'de las familias lo cambiaron con el editor',
  order: 4,
};
/** The Spanish of the FAQ the tests create: a file beside it, at the same name, written by the editor too (docs/spanish.md). */
const faqFileEs = 'content/faqs-es/what-does-the-end-to-end-test-ask.mdx';

/**
 * The editing tests share one browser window, signed in once: a fresh browser per test loaded
 * every one of Decap's modules from the dev server again and signed in again (6-20 s a test).
 * What a fresh browser gave each test besides, it still gets: each visit is a fresh load of the
 * page (`open`), and no local backup of an entry left unsaved by an earlier test is offered
 * (`forgetUnsavedEntries`). Like the suite's `page` (./fixtures.ts), it reaches nothing off this
 * machine and sends no page views.
 */
let context: BrowserContext;
let page: Page;

test.beforeAll(async ({ browser }) => {
  editor = await startEditorWorkspace(editorPorts);
  originalStats = load(editor.read(statsFile)) as unknown[];
  // Requests off this machine go to a proxy that is not there and fail, as ./fixtures.ts has them
  // aborted; not by routing, which would turn off the browser's cache (Decap's dependencies are one
  // 48 MB module under the dev server, fetched again at every visit without it).
  context = await browser.newContext({ ...devices['Desktop Chrome'], viewport, proxy: { server: 'http://127.0.0.1:9', bypass: 'localhost,127.0.0.1' } });
  await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { configurable: true, get: () => true }));
  page = await context.newPage();
  page.on('dialog', (dialog) => dialog.accept());
  // The dev server's first visit optimises Decap's dependencies and reloads the page once.
  test.setTimeout(240_000);
  await page.goto(editor.url);
  await page.getByRole('button', { name: 'Login' }).click({ timeout: 120_000 });
  await expect(page.getByRole('link', { name: 'FAQs' }).first()).toBeVisible();
});

test.afterAll(async () => {
  await context?.close();
  await editor?.stop();
});

test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus && page && !page.isClosed())
    await page.screenshot({ path: testInfo.outputPath('editor-failed.png') }).catch(() => {});
});

/** The editor's window, signed in (in `beforeAll`), with no local backups of unsaved entries. */
async function editorPage(): Promise<Page> {
  await forgetUnsavedEntries();
  return page;
}

/**
 * Removes the local backups Decap keeps of entries changed and not saved (localForage's IndexedDB
 * store), which it offers to restore when the entry is opened again: a new browser has none.
 */
async function forgetUnsavedEntries(): Promise<void> {
  await page.evaluate(async () => {
    if (!(await indexedDB.databases()).some((database) => database.name === 'localforage')) return;
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open('localforage');
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const database = request.result;
        if (!database.objectStoreNames.contains('keyvaluepairs')) return (database.close(), resolve());
        const transaction = database.transaction('keyvaluepairs', 'readwrite');
        const store = transaction.objectStore('keyvaluepairs');
        store.getAllKeys().onsuccess = (event) => {
          for (const key of (event.target as IDBRequest<IDBValidKey[]>).result) if (String(key).startsWith('backup')) store.delete(key);
        };
        transaction.oncomplete = () => (database.close(), resolve());
        transaction.onerror = () => (database.close(), reject(transaction.error));
      };
    });
  });
}

/**
 * A fresh load of the editor at a route: a hash change alone can race Decap's own navigation after
 * a save, and shows a file collection's entry without its items ("0 statistics").
 */
async function open(page: Page, hash: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${editor.url}#/${hash}`);
  // Under the dev server an entry can take longer to load than an assertion waits on a busy machine.
  // The toolbar's way back ("Writing in … collection") is drawn with the entry, once it has loaded.
  await expect(page.getByRole('link', { name: /Writing in .+ collection/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Loading entry...')).toHaveCount(0);
}

/** The statistics file, once its entries are in the editor (an "Add" before that is lost when they arrive). */
/** The statistics now in the copy (the gate leaves the one it created; the full run deletes it). */
const statsNow = () => load(editor.read(statsFile)) as unknown[];

async function openStats(page: Page, count = statsNow().length): Promise<void> {
  await open(page, 'collections/stats/entries/stats');
  await expect(page.getByText(`${count} statistics`, { exact: true })).toBeVisible();
}

async function publish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('menuitem', { name: 'Publish now' }).click();
}

async function expectSaved(page: Page): Promise<void> {
  await expect(page.getByText('Changes saved')).toBeVisible();
}

/**
 * An FAQ's form: the English on the left, its Spanish beside it on the right (Decap's i18n; only
 * the question and the answer have a Spanish side: the category and order are there but hidden).
 */
function faqForm(page: Page) {
  return {
    question: page.getByLabel('Question').first(),
    category: page.getByLabel('Category').first(),
    order: page.getByLabel('Order').first(),
    answer: page.locator('[contenteditable="true"]').first(),
    spanishQuestion: page.getByLabel('Question').last(),
    spanishAnswer: page.locator('[contenteditable="true"]').last(),
  };
}

/** Fills in a new FAQ's form; `question` left out to leave it empty, `spanish` to leave the Spanish side empty. */
async function fillFaq(
  page: Page,
  faq: { question?: string; category: string; order: number; answer: string; spanish?: { question: string; answer: string } },
): Promise<void> {
  const form = faqForm(page);
  if (faq.question !== undefined) await form.question.fill(faq.question);
  await form.category.click();
  await page.getByRole('option', { name: faq.category }).click();
  await form.order.fill(String(faq.order));
  await form.answer.click();
  await page.keyboard.type(faq.answer);
  if (!faq.spanish) return;
  await form.spanishQuestion.fill(faq.spanish.question);
  await form.spanishAnswer.click();
  await page.keyboard.type(faq.spanish.answer);
}

/** A field of the last statistic of the list (a new one is added last, opened); optional ones are labelled "… (optional)". */
function lastStat(page: Page) {
  return { field: (label: string) => page.getByLabel(new RegExp(`^${label}(\\s+\\(optional\\))?$`)).last() };
}

/** The buttons of a list item, found by the summary it shows when collapsed: open it, remove it. */
function listItem(page: Page, summary: string | RegExp) {
  const topBar = page.getByText(summary).locator('xpath=preceding-sibling::*[1]');
  return { toggle: topBar.getByRole('button').first(), remove: topBar.getByRole('button').last() };
}

test('an FAQ with its Spanish and a statistic created in the editor are written as the build reads them', { tag: '@full' }, async () => {
  const page = await editorPage();

  await open(page, 'collections/faqs/new');
  await fillFaq(page, {
    question: 'What does the end-to-end test ask?',
    category: 'Advocacy & Getting Involved',
    order: 9,
    answer: 'An answer written in the editor.',
  });
  // Without its Spanish the FAQ would stop the build: saving is refused, naming what is missing.
  await publish(page);
  await expect(page.getByText(/Question is required on the Spanish \(faqs-es\) side\. Answer is required on the Spanish \(faqs-es\) side\./)).toBeVisible();
  expect(editor.exists(faqFile)).toBe(false);
  await faqForm(page).spanishQuestion.fill('¿Qué pregunta la prueba de principio a fin?');
  await faqForm(page).spanishAnswer.click();
  await page.keyboard.type('Una respuesta escrita en el editor.');
  await publish(page);
  await expectSaved(page);
  await expect.poll(() => editor.exists(faqFile) && editor.exists(faqFileEs)).toBe(true);
  expect(editor.read(faqFile)).toBe('---\nquestion: What does the end-to-end test ask?\ncategory: advocacy\norder: 9\n---\nAn answer written in the editor.\n');
  // The Spanish twin holds the question and the answer only; category and order are the English file's.
  expect(editor.read(faqFileEs)).toBe('---\nquestion: ¿Qué pregunta la prueba de principio a fin?\n---\nUna respuesta escrita en el editor.\n');

  await openStats(page);
  await page.getByRole('button', { name: /Add statistic/ }).click();
  const stat = lastStat(page);
  await stat.field('Id').fill(newStat.id);
  await stat.field('Band').click();
  await page.getByRole('option', { name: newStat.group, exact: true }).click();
  await stat.field('Number').fill(String(newStat.target));
  await stat.field('After the figure').fill(newStat.suffix);
  await stat.field('Line under the figure').fill(newStat.label);
  await stat.field('Line under the figure, in Spanish').fill(newStat.labelEs);
  await stat.field('Order').fill(String(newStat.order));
  await publish(page);
  await expectSaved(page);
  await expect.poll(() => load(editor.read(statsFile))).toEqual([...originalStats, newStat]);
  // Key order, quoting and no empty fields, as written by hand.
  expect(editor.read(statsFile)).toContain(
    '- id: e2e-figure\n  group: home-results\n  target: 12\n  suffix: "%"\n  label: of families changed this through the editor\n  labelEs: de las familias lo cambiaron con el editor\n  order: 4\n',
  );
});

// The full run's (`npm run test:full`): editing rewrites the same two files the creation wrote, and
// a build of the copy shows the edits (the gate proves the written files byte for byte above, in
// the form the committed FAQs and statistics have, which every run's build of the site reads).
test('editing them changes the same files', { tag: '@full' }, async () => {
  const page = await editorPage();

  await open(page, 'collections/faqs/entries/what-does-the-end-to-end-test-ask');
  await expect(faqForm(page).question).toHaveValue('What does the end-to-end test ask?');
  await expect(faqForm(page).spanishQuestion).toHaveValue('¿Qué pregunta la prueba de principio a fin?');
  await faqForm(page).question.fill('What does the end-to-end test ask now?');
  await faqForm(page).spanishQuestion.fill('¿Qué pregunta ahora la prueba de principio a fin?');
  await publish(page);
  await expectSaved(page);
  await expect.poll(() => editor.read(faqFile)).toContain('question: What does the end-to-end test ask now?\n');
  await expect.poll(() => editor.read(faqFileEs)).toContain('question: ¿Qué pregunta ahora la prueba de principio a fin?\n');

  await openStats(page, originalStats.length + 1);
  await listItem(page, `home-results: 12% ${newStat.label}`).toggle.click();
  await lastStat(page).field('Line under the figure').fill('of families edited this through the editor');
  await publish(page);
  await expectSaved(page);
  await expect.poll(() => load(editor.read(statsFile))).toEqual([...originalStats, { ...newStat, label: 'of families edited this through the editor' }]);
});

test('the build accepts the saved files and shows the changes on /faqs and the home page', { tag: '@full' }, async () => {
  test.setTimeout(240_000);
  // Every FAQ needs its Spanish beside it, or /faqs and /es/faqs do not build: the editor wrote both.
  const build = await editor.build();
  expect(build.output).not.toMatch(/does not match collection schema/);
  expect(build.ok, build.output.slice(-2000)).toBe(true);
  const faqs = build.page('/faqs');
  expect(faqs).toContain('What does the end-to-end test ask now?');
  // The page counts the questions, the new one included.
  expect(faqs).toContain(`${editor.list('content/faqs').length} Questions Answered`);
  expect(build.page('/')).toContain('of families edited this through the editor');
  expect(build.page('/es/faqs')).toContain('¿Qué pregunta ahora la prueba de principio a fin?');
  expect(build.page('/es')).toContain('de las familias lo cambiaron con el editor');
});

// The full run's: that deleting an FAQ removes both languages' files is Decap's i18n given this
// configuration, which tests/unit/content-editor-spanish.test.ts checks; the gate creates them here.
test('deleting them removes the FAQ’s two files and the statistic', { tag: '@full' }, async () => {
  const page = await editorPage();

  // As created, or as edited where the full run's editing test ran before.
  const { question } = load(editor.read(faqFile).split('---')[1]!) as { question: string };
  const { label } = (load(editor.read(statsFile)) as Array<{ id: string; label: string }>).find((stat) => stat.id === newStat.id)!;
  await open(page, 'collections/faqs/entries/what-does-the-end-to-end-test-ask');
  await expect(faqForm(page).question).toHaveValue(question);
  await page.getByRole('button', { name: 'Delete entry' }).click();
  await expect.poll(() => editor.exists(faqFile) || editor.exists(faqFileEs)).toBe(false);

  await openStats(page, originalStats.length + 1);
  await listItem(page, `home-results: 12% ${label}`).remove.click();
  await publish(page);
  await expectSaved(page);
  await expect.poll(() => load(editor.read(statsFile))).toEqual(originalStats);
});

test('bad input is refused in the editor with the field named', { tag: '@full' }, async () => {
  const page = await editorPage();

  // An empty required field.
  await open(page, 'collections/faqs/new');
  await fillFaq(page, { category: 'How It Works', order: 3, answer: 'An answer without a question.' });
  await publish(page);
  await expect(page.getByText('Question is required.')).toBeVisible();

  // An over-long question, and an answer the MDX compiler would choke on.
  await faqForm(page).question.fill(`Why ${'so '.repeat(70)}long?`);
  await faqForm(page).answer.click();
  await page.keyboard.type(' Use {curly} braces.');
  await publish(page);
  await expect(page.getByText("Question didn't match the pattern: 8 to 200 characters.")).toBeVisible();
  await expect(page.getByText(/Answer didn't match the pattern: no \{ \} or </)).toBeVisible();

  // An FAQ committed by hand in a category that does not exist.
  editor.write('content/faqs/e2e-unknown-category.mdx', '---\nquestion: Which category is this in?\ncategory: no-such-topic\norder: 1\n---\nNone of them.\n');
  await open(page, 'collections/faqs/entries/e2e-unknown-category');
  await expect(faqForm(page).order).toHaveValue('1');
  await faqForm(page).order.fill('2');
  await publish(page);
  await expect(page.getByText(/Category didn't match the pattern: one of: how-it-works, /)).toBeVisible();
  expect(editor.read('content/faqs/e2e-unknown-category.mdx')).toContain('order: 1\n');

  // A statistic without a number (or a text).
  const statsBefore = statsNow();
  await openStats(page);
  await page.getByRole('button', { name: /Add statistic/ }).click();
  const stat = lastStat(page);
  await stat.field('Id').fill('e2e-no-number');
  await stat.field('Band').click();
  await page.getByRole('option', { name: 'home-stats', exact: true }).click();
  await stat.field('Line under the figure').fill('a figure nobody gave');
  await stat.field('Line under the figure, in Spanish').fill('una cifra que nadie dio');
  await stat.field('Order').fill('7');
  await publish(page);
  await expect(page.getByText(`Statistic ${statsBefore.length + 1} ("e2e-no-number"): fill in "Number" or "Text".`)).toBeVisible();
  expect(statsNow()).toEqual(statsBefore);
});

// The full run's: committed as it is, the file the editor refused to save fails the build, which
// names the entry and the field (a category is checked when the pages are built, not by the
// collection's schema, so no quicker check than a build shows it).
test('a hand-committed FAQ in an unknown category stops the build, naming the entry and the field', { tag: '@full' }, async () => {
  test.setTimeout(240_000);
  editor.write('content/faqs/e2e-unknown-category.mdx', '---\nquestion: Which category is this in?\ncategory: no-such-topic\norder: 1\n---\nNone of them.\n');
  const build = await editor.build();
  expect(build.ok).toBe(false);
  expect(build.output).toContain('entry "e2e-unknown-category" in collection "faqs" (field: category)');
  expect(build.output).toContain('content/faqs/e2e-unknown-category.mdx names an unknown category "no-such-topic"');
});

test('a place’s words open with each key’s English and Spanish side by side, and saving writes the Spanish file', { tag: '@full' }, async () => {
  const page = await editorPage();
  const english = (load(editor.read('content/i18n/en/notFound.yaml')) as { title: string }).title;
  const spanish = (load(editor.read('content/i18n/es/notFound.yaml')) as { title: string }).title;

  await open(page, 'collections/words/entries/notFound');
  await expect(page.getByText(`title: ${english}`, { exact: true })).toBeVisible();
  await expect(page.getByText(`title: ${spanish}`, { exact: true })).toBeVisible();
  await listItem(page, `title: ${spanish}`).toggle.click();
  // Only the opened key's words are shown: the English keys stay closed on the left.
  await expect(page.locator('textarea:visible')).toHaveCount(1);
  await page.locator('textarea:visible').fill('Página no encontrada: la prueba');
  await publish(page);
  await expectSaved(page);
  await expect.poll(() => load(editor.read('content/i18n/es/notFound.yaml'))).toMatchObject({ title: 'Página no encontrada: la prueba' });
  // Quoted (": "), and the English file and every other key as they were.
  expect(editor.read('content/i18n/es/notFound.yaml')).toContain('title: "Página no encontrada: la prueba"\n');
  expect((load(editor.read('content/i18n/en/notFound.yaml')) as { title: string }).title).toBe(english);
});

// The full run's: the previews render the site's own components (checked on the site's pages in the gate).
test('the previews show an FAQ as the accordion and statistics as cards, and pass axe', { tag: '@full' }, async () => {
  const page = await editorPage();
  const preview = page.frameLocator('#preview-pane');

  await open(page, 'collections/faqs/entries/what-is-the-mastery-threshold');
  // The Spanish side shows beside an FAQ first; the preview is a click away.
  await page.getByTitle('Toggle preview').click();
  await expect(preview.getByRole('heading', { level: 3, name: 'What score counts as mastery?' })).toBeVisible();
  await expect(preview.getByRole('heading', { level: 2, name: 'Personalization, Curriculum & Academic Progress' })).toBeVisible();
  await expect(preview.locator('.rich-text')).toContainText('90%');
  await page.screenshot({ path: test.info().outputPath('faq-preview.png') });
  expect(await axeViolations(page, { include: ['#preview-pane', '[data-preview]'] })).toEqual([]);

  await openStats(page);
  await expect(preview.locator('[data-stat="math-proficient"]')).toContainText('26%');
  await expect(preview.locator('[data-stat="double-growth"]')).toContainText('2x');
  expect(await axeViolations(page, { include: ['#preview-pane', '[data-preview]'] })).toEqual([]);
});
