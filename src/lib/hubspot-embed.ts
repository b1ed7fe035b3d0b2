/**
 * Loads HubSpot's form embed once, only when a form slot comes near the viewport, and mounts
 * every `[data-hubspot-form]` slot. A slot announces submissions as a `hubspot:submitted` DOM
 * event (detail: `{ formId, values }`) so islands can react without knowing the embed.
 */
import { hubspot } from '../config/forms';
import { isTrustedFormOrigin, valuesFromPayload, type SubmittedValues } from './hubspot-values';

/** After this long without the embed, the slot says so and offers a plain link. */
export const EMBED_TIMEOUT_MS = 5000;
/** Re-mount a form this long after its container was re-rendered (the spec's 200-500 ms). */
export const REATTACH_DELAY_MS = 300;

export interface SubmittedDetail {
  formId: string;
  values: SubmittedValues;
}

interface HubSpotFormsApi {
  forms: { create(options: Record<string, unknown>): void };
}

declare global {
  interface Window {
    hbspt?: HubSpotFormsApi;
  }
  interface HTMLElementEventMap {
    'hubspot:submitted': CustomEvent<SubmittedDetail>;
    'hubspot:ready': CustomEvent<{ formId: string }>;
  }
}

let scriptPromise: Promise<HubSpotFormsApi> | undefined;

/** Injects the embed script a single time; rejects when it cannot load in time. */
export function loadEmbedScript(timeoutMs = EMBED_TIMEOUT_MS): Promise<HubSpotFormsApi> {
  if (window.hbspt) return Promise.resolve(window.hbspt);
  scriptPromise ??= new Promise<HubSpotFormsApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = hubspot.embedScriptUrl;
    script.async = true;
    script.dataset.hubspotEmbed = '';
    const timer = setTimeout(() => fail(new Error('timeout')), timeoutMs);
    function fail(error: Error) {
      clearTimeout(timer);
      script.remove();
      scriptPromise = undefined;
      reject(error);
    }
    script.addEventListener('load', () => {
      clearTimeout(timer);
      if (window.hbspt) resolve(window.hbspt);
      else fail(new Error('the embed loaded without its API'));
    });
    script.addEventListener('error', () => fail(new Error('network')));
    document.head.append(script);
  });
  return scriptPromise;
}

const recentSubmissions = new Map<string, number>();

function announce(slot: HTMLElement, formId: string, values: SubmittedValues): void {
  // The embed may report one submission through both the callback and the window message.
  const last = recentSubmissions.get(formId) ?? 0;
  if (Date.now() - last < 1000) return;
  recentSubmissions.set(formId, Date.now());
  slot.dispatchEvent(new CustomEvent('hubspot:submitted', { detail: { formId, values }, bubbles: true }));
}

function setStatus(slot: HTMLElement, state: 'loading' | 'ready' | 'failed'): void {
  slot.setAttribute('aria-busy', String(state === 'loading'));
  slot.dataset.state = state;
  const status = slot.querySelector<HTMLElement>('[data-hubspot-status]');
  if (!status) return;
  if (state === 'ready') status.hidden = true;
  if (state === 'failed') {
    status.hidden = false;
    status.setAttribute('role', 'alert');
    status.replaceChildren(
      document.createTextNode('The form could not load right now. '),
      Object.assign(document.createElement('a'), {
        href: slot.dataset.fallbackUrl ?? '#',
        target: '_blank',
        rel: 'noopener noreferrer',
        className: 'font-medium text-brand-700 underline',
        textContent: 'Open the form in a new tab',
      }),
      document.createTextNode('.'),
    );
  }
}

/** Fills the hidden `referral_source` input with the page and the ambassador id, when present. */
function fillReferralSource(root: Element): void {
  const input = root.querySelector<HTMLInputElement>('input[name="referral_source"]');
  if (!input) return;
  const ambassadorId = new URLSearchParams(location.search).get('ambassadorId');
  input.value = ambassadorId ? `${location.pathname}|ambassador:${ambassadorId}` : location.pathname;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Mounts one slot; returns a function that removes its observers. */
export function mountHubSpotForm(slot: HTMLElement): () => void {
  const formId = slot.dataset.formId ?? '';
  const target = document.createElement('div');
  target.id = `${slot.id || 'hs-form'}-target`;
  target.dataset.hubspotTarget = '';
  slot.append(target);
  let reattachTimer: ReturnType<typeof setTimeout> | undefined;
  let mutationObserver: MutationObserver | undefined;
  // Only a form that has rendered is re-attached: the real embed fills its target asynchronously.
  let rendered = false;
  let disposed = false;

  const create = (api: HubSpotFormsApi) => {
    rendered = false;
    target.replaceChildren();
    api.forms.create({
      region: slot.dataset.region,
      portalId: slot.dataset.portalId,
      formId,
      target: `#${CSS.escape(target.id)}`,
      onFormReady: (form: unknown) => {
        rendered = true;
        setStatus(slot, 'ready');
        fillReferralSource(form instanceof Element ? form : target);
        slot.dispatchEvent(new CustomEvent('hubspot:ready', { detail: { formId }, bubbles: true }));
      },
      onFormSubmitted: (_form: unknown, data: unknown) => announce(slot, formId, valuesFromPayload(data)),
    });
  };

  const start = () => {
    setStatus(slot, 'loading');
    loadEmbedScript()
      .then((api) => {
        if (disposed) return;
        create(api);
        // A re-render that empties the slot or the form's container re-mounts the form.
        mutationObserver = new MutationObserver(() => {
          if (!slot.isConnected || !rendered) return;
          if (!slot.contains(target)) slot.append(target);
          if (target.childElementCount === 0) {
            rendered = false;
            clearTimeout(reattachTimer);
            reattachTimer = setTimeout(() => create(api), REATTACH_DELAY_MS);
          }
        });
        mutationObserver.observe(slot, { childList: true, subtree: true });
      })
      .catch(() => {
        if (!disposed) setStatus(slot, 'failed');
      });
  };

  const visibility = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        visibility.disconnect();
        start();
      }
    },
    { rootMargin: '600px 0px' },
  );
  visibility.observe(slot);

  return () => {
    disposed = true;
    visibility.disconnect();
    mutationObserver?.disconnect();
    clearTimeout(reattachTimer);
  };
}

let messageListener: ((event: MessageEvent) => void) | undefined;
let slotObserver: MutationObserver | undefined;
const mounted = new Map<HTMLElement, () => void>();

/** Mounts slots not yet mounted, and releases the observers of slots that left the page. */
function syncSlots(root: ParentNode): void {
  for (const [slot, cleanup] of mounted) {
    if (!slot.isConnected) {
      cleanup();
      mounted.delete(slot);
    }
  }
  for (const slot of root.querySelectorAll<HTMLElement>('[data-hubspot-form]')) {
    if (mounted.has(slot)) continue;
    // A slot re-rendered from the same markup starts afresh.
    slot.querySelector('[data-hubspot-target]')?.remove();
    slot.dataset.mounted = '';
    mounted.set(slot, mountHubSpotForm(slot));
  }
}

/**
 * Mounts every slot on the page, and slots added later (an island re-rendering its container),
 * and listens for `hsFormCallback` messages. The returned function removes every listener.
 */
export function initHubSpotForms(root: ParentNode = document): () => void {
  syncSlots(root);
  if (!slotObserver && typeof MutationObserver !== 'undefined' && document.body) {
    let queued = false;
    slotObserver = new MutationObserver(() => {
      if (queued) return;
      queued = true;
      queueMicrotask(() => {
        queued = false;
        syncSlots(document);
      });
    });
    slotObserver.observe(document.body, { childList: true, subtree: true });
  }
  if (!messageListener) {
    messageListener = (event: MessageEvent) => {
      const data = event.data as { type?: string; eventName?: string; id?: string; data?: unknown } | null;
      if (!data || data.type !== 'hsFormCallback' || data.eventName !== 'onFormSubmitted') return;
      if (!isTrustedFormOrigin(event.origin, location.origin)) return;
      // The message must come from this window (inline forms) or a frame of this page.
      if (event.source !== window && ![...document.querySelectorAll('iframe')].some((f) => f.contentWindow === event.source)) return;
      const slot = document.querySelector<HTMLElement>(`[data-hubspot-form][data-form-id="${CSS.escape(String(data.id ?? ''))}"]`);
      if (slot) announce(slot, slot.dataset.formId ?? '', valuesFromPayload(data.data));
    };
    window.addEventListener('message', messageListener);
  }
  return () => {
    for (const cleanup of mounted.values()) cleanup();
    mounted.clear();
    slotObserver?.disconnect();
    slotObserver = undefined;
    if (messageListener) window.removeEventListener('message', messageListener);
    messageListener = undefined;
  };
}
