/**
 * The content editor's production page (/content-editor, Decap CMS, served by `npm start`): it boots
 * under its own policy, and no page visitors see loads it or its policy. (The editing itself is
 * ./content-editor.spec.ts's, in the full run.)
 */
import { expect, test } from './fixtures';

test.describe('the production page', () => {
  /** A style directive for style elements that lets inline ones in, as Decap's emotion styles need. */
  const inlineStyles = /(?:^|;)\s*style-src(?:-elem)? [^;]*'unsafe-inline'/;

  test('boots Decap with the GitHub backend under its own policy, and no other page loads it', async ({ page, consoleErrors, request, baseURL }) => {
    // Everything comes from this site: no script or style from a CDN.
    const elsewhere: string[] = [];
    page.on('request', (sent) => {
      const url = new URL(sent.url());
      if (!['data:', 'blob:'].includes(url.protocol) && url.origin !== new URL(baseURL!).origin) elsewhere.push(sent.url());
    });
    const response = await page.goto('/content-editor');
    await page.waitForLoadState('networkidle');
    expect(response?.status()).toBe(200);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    await expect(page.getByRole('button', { name: 'Login with GitHub' })).toBeVisible({ timeout: 30_000 });
    // Decap's run-time styles and its configuration check run under the page's policy.
    expect(consoleErrors.filter((error) => /Content-Security-Policy/.test(error))).toEqual([]);
    const policy = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
    expect(policy).toMatch(inlineStyles);
    expect(policy).toMatch(/script-src [^;]*'self' [^;]*'unsafe-eval'/);
    expect(policy).toMatch(/connect-src [^;]*https:\/\/api\.github\.com/);
    expect(elsewhere).toEqual([]);
    expect((await request.get('/content-editor/')).status()).toBe(200);
    expect((await request.get('/content-editor')).headers()['x-robots-tag']).toBe('noindex, nofollow');

    // Decap is the editor's alone: none of its scripts loads on the pages visitors see.
    const loadedScripts = () =>
      page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => entry.name.endsWith('.js'))
          .map((entry) => ({ url: new URL(entry.name).pathname, size: entry.decodedBodySize })),
      );
    const editorOnly = (await loadedScripts()).filter((script) => script.size > 300_000 || script.url.includes('content-editor')).map((script) => script.url);
    expect(editorOnly.length).toBeGreaterThan(0);
    for (const path of ['/', '/faqs', '/lead-the-change', '/webhook-config']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      expect((await loadedScripts()).map((script) => script.url).filter((url) => editorOnly.includes(url))).toEqual([]);
      // Nor does its looser policy.
      const pagePolicy = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
      expect(pagePolicy).not.toMatch(/'unsafe-eval'|api\.github\.com/);
      expect(pagePolicy).not.toMatch(inlineStyles);
    }

    // Neither search engines nor the site search list it.
    const sitemap = await (await request.get('/sitemap-0.xml')).text();
    expect(sitemap).toContain('/faqs');
    expect(sitemap).not.toContain('/content-editor');
    const search = async (term: string) => {
      const answer = await (await request.get(`/api/search?q=${encodeURIComponent(term)}`)).json();
      return (answer.rows as Array<{ url: string }>).map((row) => row.url);
    };
    expect((await search('school')).length).toBeGreaterThan(0);
    expect((await search('content editor')).filter((url) => url.includes('content-editor'))).toEqual([]);
  });
});
