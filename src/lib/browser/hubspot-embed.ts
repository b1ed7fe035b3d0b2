/**
 * Loads HubSpot's form embed only when a form slot comes near the viewport, once per script, always
 * over https, and mounts every `[data-hubspot-form]` slot. A slot announces a submission as a
 * `hubspot:submitted` DOM event (detail: `{ formId, values }`, values keyed by property name) so
 * islands can react without knowing the embed. Both of HubSpot's embed generations are understood:
 *
 * - v2, legacy forms: `https://js.hsforms.net/forms/embed/v2.js` defines
 *   `hbspt.forms.create({ region, portalId, formId, target, onFormReady, onFormSubmit,
 *   onFormSubmitted })` and also posts `{ type: 'hsFormCallback', eventName, id: formId, data }`
 *   window messages (https://developers.hubspot.com/docs/cms/start-building/features/forms/legacy-forms).
 * - v4, forms of HubSpot's updated forms editor: the page holds HubSpot's
 *   `<div class="hs-form-frame" data-region data-form-id data-portal-id>` and the portal's script,
 *   `https://js.hsforms.net/forms/embed/{portalId}.js` (`js-{region}.hsforms.net` outside na1),
 *   renders each frame. The form then reports through `CustomEvent`s on `window`:
 *   `hs-form-event:on-ready`, `hs-form-event:on-submission:success`,
 *   `hs-form-event:on-submission:failed` and, on multi-step forms, `hs-form-event:on-interaction:navigate`
 *   (+ `:next`/`:previous`), each with `detail: { formId, instanceId }`. `window.HubSpotFormsV4`
 *   gives the form instances (`getForms()`, `getFormFromEvent(event)`); an instance has
 *   `getFormId()`, `getInstanceId()`, `getFormFieldValues()` (a promise of `[{ name, value }]`, names
 *   such as `0-1/email`) and `setFieldValue(name, value)`. Source: "Global form events",
 *   https://developers.hubspot.com/docs/api-reference/latest/marketing/forms/global-form-events,
 *   and HubSpot's embed code for the updated editor as sites publish it. A failed submission is
 *   shown by the form itself, which stays: nothing is announced. The v4 script renders the frames on
 *   the page when it loads; a frame added later is not re-attached (HubSpot documents no call for it).
 */
import { hubspot } from '../../config/forms';
import { isTrustedFormOrigin, normaliseV4Values, valuesFromPayload, type SubmittedValues } from '../shared/hubspot-values';

/** After this long without the embed, the slot says so and offers a plain link. */
export const EMBED_TIMEOUT_MS = 5000;
/** Re-mount a form this long after its container was re-rendered (the spec's 200-500 ms). */
export const REATTACH_DELAY_MS = 300;

/** The v4 embed's window events this module listens to. */
const V4_EVENTS = {
  ready: 'hs-form-event:on-ready',
  submitted: 'hs-form-event:on-submission:success',
} as const;

export interface SubmittedDetail {
  formId: string;
  values: SubmittedValues;
}

interface HubSpotFormsApi {
  forms: { create(options: Record<string, unknown>): void };
}

/** A form instance of the v4 embed. */
export interface HubSpotV4Form {
  getFormId(): string;
  getInstanceId(): string;
  getFormFieldValues(): Promise<Array<{ name: string; value: unknown }>>;
  setFieldValue(name: string, value: unknown): void;
}

interface HubSpotFormsV4Api {
  getForms(): HubSpotV4Form[];
  getFormFromEvent(event: Event): HubSpotV4Form | null | undefined;
}

declare global {
  interface Window {
    hbspt?: HubSpotFormsApi;
    HubSpotFormsV4?: HubSpotFormsV4Api;
  }
  interface HTMLElementEventMap {
    'hubspot:submitted': CustomEvent<SubmittedDetail>;
    'hubspot:ready': CustomEvent<{ formId: string }>;
  }
}

type Generation = 'v2' | 'v4';
const generationOf = (slot: HTMLElement): Generation => (slot.dataset.embed === 'v4' ? 'v4' : 'v2');

/** The script a slot needs: its `data-embed-src` when that is https on HubSpot's form host. */
function embedScriptOf(slot: HTMLElement): string | undefined {
  const src = slot.dataset.embedSrc || (generationOf(slot) === 'v2' ? hubspot.embedScriptUrl : '');
  try {
    const url = new URL(src);
    return url.protocol === 'https:' && /(^|\.)hsforms\.net$/.test(url.hostname) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const scripts = new Map<string, Promise<void>>();

/** Injects a script a single time per URL; rejects when it cannot load in time (and may be retried). */
export function loadEmbedScript(src: string, generation: Generation, timeoutMs = EMBED_TIMEOUT_MS): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.dataset.hubspotEmbed = generation;
      const timer = setTimeout(() => fail(new Error('timeout')), timeoutMs);
      function fail(error: Error) {
        clearTimeout(timer);
        script.remove();
        scripts.delete(src);
        reject(error);
      }
      script.addEventListener('load', () => {
        clearTimeout(timer);
        resolve();
      });
      script.addEventListener('error', () => fail(new Error('network')));
      document.head.append(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}

/** The v2 embed's API, loading its script when needed. */
async function loadV2Embed(src: string): Promise<HubSpotFormsApi> {
  if (!window.hbspt) await loadEmbedScript(src, 'v2');
  if (window.hbspt) return window.hbspt;
  scripts.delete(src);
  throw new Error('the embed loaded without its API');
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

/** The value of the hidden `referral_source` field: the page, and the ambassador id when present. */
function referralSource(): string {
  const ambassadorId = new URLSearchParams(location.search).get('ambassadorId');
  return ambassadorId ? `${location.pathname}|ambassador:${ambassadorId}` : location.pathname;
}

/** Fills the hidden `referral_source` input of a v2 form. */
function fillReferralSource(root: Element): void {
  const input = root.querySelector<HTMLInputElement>('input[name="referral_source"]');
  if (!input) return;
  input.value = referralSource();
  input.dispatchEvent(new Event('input', { bubbles: true }));
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Fills `referral_source` of a v4 form through its API (the form is in HubSpot's frame). */
async function fillReferralSourceV4(form: HubSpotV4Form): Promise<void> {
  try {
    const field = (await form.getFormFieldValues()).find((item) => /(^|\/)referral_source$/.test(item.name));
    if (field) form.setFieldValue(field.name, referralSource());
  } catch {
    // Optional: the form works without it.
  }
}

function ready(slot: HTMLElement, formId: string): void {
  setStatus(slot, 'ready');
  slot.dispatchEvent(new CustomEvent('hubspot:ready', { detail: { formId }, bubbles: true }));
}

interface MountedForm {
  /** The slot came near the viewport. */
  start(): void;
  dispose(): void;
}

/** v2: `hbspt.forms.create` into a target of the slot, created again when a re-render empties it. */
function mountV2(slot: HTMLElement): MountedForm {
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
        fillReferralSource(form instanceof Element ? form : target);
        ready(slot, formId);
      },
      onFormSubmitted: (_form: unknown, data: unknown) => announce(slot, formId, valuesFromPayload(data)),
    });
  };

  return {
    start() {
      setStatus(slot, 'loading');
      const src = embedScriptOf(slot);
      (src ? loadV2Embed(src) : Promise.reject(new Error('no https embed script')))
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
    },
    dispose() {
      disposed = true;
      mutationObserver?.disconnect();
      clearTimeout(reattachTimer);
    },
  };
}

/**
 * v4: the slot's `hs-form-frame` is HubSpot's; loading the portal's script is all it takes. The
 * window listeners of `initHubSpotForms` mark the slot ready and announce its submissions.
 */
function mountV4(slot: HTMLElement): MountedForm {
  let disposed = false;
  return {
    start() {
      // The script may have rendered this frame already, for a form further up the page.
      if (slot.dataset.state === 'ready') return;
      setStatus(slot, 'loading');
      const src = embedScriptOf(slot);
      (src ? loadEmbedScript(src, 'v4') : Promise.reject(new Error('no https embed script'))).catch(() => {
        if (!disposed && slot.dataset.state !== 'ready') setStatus(slot, 'failed');
      });
    },
    dispose() {
      disposed = true;
    },
  };
}

/** Mounts one slot: its embed starts when the slot comes near the viewport. Returns a cleanup. */
export function mountHubSpotForm(slot: HTMLElement): () => void {
  const form = (generationOf(slot) === 'v4' ? mountV4 : mountV2)(slot);
  const visibility = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        visibility.disconnect();
        form.start();
      }
    },
    { rootMargin: '600px 0px' },
  );
  visibility.observe(slot);

  return () => {
    visibility.disconnect();
    form.dispose();
  };
}

/** The v4 slots of a form, in page order. */
function v4Slots(formId: string): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[data-hubspot-form][data-embed="v4"]')].filter((slot) => slot.dataset.formId === formId);
}

function v4FormOf(event: Event): HubSpotV4Form | undefined {
  try {
    return window.HubSpotFormsV4?.getFormFromEvent(event) ?? undefined;
  } catch {
    return undefined;
  }
}

function v4FormIdOf(event: Event): string {
  const detail = (event as CustomEvent<{ formId?: unknown } | null>).detail;
  return detail && typeof detail.formId === 'string' ? detail.formId : '';
}

function onV4Ready(event: Event): void {
  const formId = v4FormIdOf(event);
  const slots = v4Slots(formId);
  if (!slots.length) return;
  // Each instance reports itself; which frame it is cannot be told, so every slot of the form is ready.
  for (const slot of slots) if (slot.dataset.state !== 'ready') ready(slot, formId);
  const form = v4FormOf(event);
  if (form) void fillReferralSourceV4(form);
}

async function onV4Submitted(event: Event): Promise<void> {
  const formId = v4FormIdOf(event);
  const slots = v4Slots(formId);
  // With the same form twice on a page, the one the parent is in (HubSpot's frame has the focus).
  const slot = slots.find((candidate) => candidate.contains(document.activeElement)) ?? slots[0];
  if (!slot) return;
  const form = v4FormOf(event);
  let values: SubmittedValues = {};
  try {
    values = normaliseV4Values(await form?.getFormFieldValues());
  } catch (error) {
    // §8: form data extraction errors are only logged; the submission itself went through.
    console.warn('Could not read the submitted form', error instanceof Error ? error.message : error);
  }
  announce(slot, formId, values);
}

let messageListener: ((event: MessageEvent) => void) | undefined;
let v4Listeners: Array<[string, (event: Event) => void]> | undefined;
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
 * and listens for the v2 `hsFormCallback` messages and the v4 window events. The returned function
 * removes every listener.
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
      if (data?.type !== 'hsFormCallback' || data.eventName !== 'onFormSubmitted') return;
      if (!isTrustedFormOrigin(event.origin, location.origin)) return;
      // The message must come from this window (inline forms) or a frame of this page.
      if (event.source !== window && ![...document.querySelectorAll('iframe')].some((f) => f.contentWindow === event.source)) return;
      const slot = document.querySelector<HTMLElement>(`[data-hubspot-form]:not([data-embed="v4"])[data-form-id="${CSS.escape(String(data.id ?? ''))}"]`);
      if (slot) announce(slot, slot.dataset.formId ?? '', valuesFromPayload(data.data));
    };
    window.addEventListener('message', messageListener);
  }
  if (!v4Listeners) {
    v4Listeners = [
      [V4_EVENTS.ready, onV4Ready],
      [V4_EVENTS.submitted, (event) => void onV4Submitted(event)],
    ];
    for (const [name, listener] of v4Listeners) window.addEventListener(name, listener);
  }
  return () => {
    for (const cleanup of mounted.values()) cleanup();
    mounted.clear();
    slotObserver?.disconnect();
    slotObserver = undefined;
    if (messageListener) window.removeEventListener('message', messageListener);
    messageListener = undefined;
    for (const [name, listener] of v4Listeners ?? []) window.removeEventListener(name, listener);
    v4Listeners = undefined;
  };
}
