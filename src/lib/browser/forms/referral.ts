/**
 * The hidden `referral_source` field (§3): the page, and the ambassador id when the link has one.
 * Filled when the page loads (on-demand.ts), so it is right before the form's enhancement loads.
 */
export function fillReferralSource(form: HTMLFormElement, url: URL = new URL(location.href)): void {
  const input = form.elements.namedItem('referral_source');
  if (!(input instanceof HTMLInputElement)) return;
  const ambassadorId = url.searchParams
    .get('ambassadorId')
    ?.replace(/[\u0000-\u001f\u007f|]/g, '')
    .trim()
    .slice(0, 100);
  input.value = ambassadorId ? `${url.pathname}|ambassador:${ambassadorId}` : url.pathname;
}
