/**
 * A local stand-in for HubSpot's public API, speaking the same HTTP contract for the calls the
 * site makes: CRM contact search/create/update, CMS blog posts and tags, account details, form
 * definitions (Marketing Forms v3), the Forms submission API (the public and the authenticated
 * endpoint, which check a submission against the form as HubSpot does) and the list of a form's
 * submissions (Forms v1), the transactional single-send (POST
 * /marketing/v3/transactional/single-email/send, at most one email per sendId), and the GDPR delete of a
 * contact (POST /crm/v3/objects/contacts/gdpr-delete: 204, or 404 for no such contact). It checks the bearer token, and can be told to fail (`failNext`), to be
 * down altogether (`down`) or for the calls that name one address (`downFor`), to be slow (`delayMs`) and to lag search behind writes (`searchLagMs`),
 * as the real one does.
 *
 * In-process: `const fake = await startHubSpotFake()`. As a process (for `npm start` in e2e):
 * `node tests/fakes/hubspot.ts --port 8911 [--forms-file dist/api/form-definitions.json]`, controlled
 * through `POST /__fake/*`. With `--forms-file`, the forms the site's build wrote are HubSpot's forms.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { listen, readBody } from './_http.ts';

export const FAKE_HUBSPOT_TOKEN = 'fake-hubspot-token';

export interface FakeContact {
  id: string;
  properties: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  /** Search sees a contact only from this time on (HubSpot's index lags behind writes). */
  searchableAt: number;
}

export interface FakeBlogPost {
  id: string;
  slug: string;
  name: string;
  htmlTitle?: string;
  postBody: string;
  postSummary: string;
  publishDate: string;
  tagIds: string[];
  featuredImage?: string;
  state?: string;
  currentState?: string;
  contentGroupId?: string;
  /** HubSpot's language tag ("en", "es", "es-mx"); the real API gives one on every post. */
  language?: string;
  /** The primary post of the translation group (only on a translation). */
  translatedFromId?: string;
}

/** A form definition as the Marketing Forms v3 API returns it (GET /marketing/v3/forms/{formId}). */
export type FakeFormDefinition = Record<string, unknown> & { id: string };

export interface FakeCall {
  method: string;
  path: string;
  body: unknown;
  authorization?: string;
}

/** An email the transactional single-send API sent (or refused), as the request gave it. */
export interface FakeTransactionalSend {
  emailId: number;
  message: { to: string; from?: string; sendId?: string; replyTo?: string[]; cc?: string[]; bcc?: string[] };
  customProperties: Record<string, unknown>;
  contactProperties: Record<string, string>;
  statusId: string;
  sendResult: string;
  requestedAt: string;
}

export interface HubSpotFake {
  url: string;
  port: number;
  token: string;
  contacts: Map<string, FakeContact>;
  posts: FakeBlogPost[];
  tags: Map<string, string>;
  formSubmissions: Array<{ portalId: string; formGuid: string; body: unknown; authenticated?: boolean; conversionId?: string; recordedAt?: number }>;
  /** Form definitions by id, as HubSpot stores them. */
  forms: Map<string, FakeFormDefinition>;
  /** Adds a form from a definition in the site's shape, filling in what HubSpot's answer always has. */
  addForm(definition: { id: string } & Record<string, unknown>): FakeFormDefinition;
  calls: FakeCall[];
  /** The next answers, in order, are these error statuses (e.g. [429, 500]). */
  failNext(...statuses: number[]): void;
  delayMs: number;
  /** Only the form submission endpoints answer this late (a search or a contact answers at once). */
  submitDelayMs: number;
  searchLagMs: number;
  /** Every call answers 503, as during an outage, until set back. */
  down: boolean;
  /**
   * Only the calls that name this text (an address, say) in their URL or body answer 503: an outage
   * as one test's requests see it, which the tests running beside it do not share.
   */
  downFor: string;
  /** Single-sends made: one per sendId (a repeat is answered, not sent again). */
  transactionalSends: FakeTransactionalSend[];
  /** The sendResult HubSpot gives a recipient, by address or `@domain` (e.g. INVALID_TO_ADDRESS, BLOCKED_DOMAIN); SENT otherwise. */
  sendResults: Map<string, string>;
  /** Answer single-sends as still processing (status PENDING, no sendResult yet), as the asynchronous API may. */
  transactionalPending: boolean;
  /** GDPR deletions asked for, in order, with the status answered (204 deleted, 404 no such contact). */
  gdprDeletions: Array<{ objectId: string; idProperty?: string; status: number }>;
  addContact(email: string, properties?: Record<string, string>): FakeContact;
  findContact(email: string): FakeContact | undefined;
  reset(): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
}

function hubspotError(res: ServerResponse, status: number, category: string, message: string, headers: Record<string, string> = {}): void {
  send(res, status, { status: 'error', message, correlationId: crypto.randomUUID(), category }, headers);
}

/** A field as HubSpot answers it: every property present, dependent fields nested the same way. */
function hubspotField(field: Record<string, unknown>): Record<string, unknown> {
  const choice = ['dropdown', 'radio', 'multiple_checkboxes'].includes(String(field.fieldType));
  return {
    objectTypeId: '0-1',
    hidden: false,
    required: false,
    label: '',
    ...(choice ? { options: [], defaultValues: [] } : {}),
    ...field,
    dependentFields: ((field.dependentFields as Array<Record<string, unknown>> | undefined) ?? []).map((dependent) => ({
      dependentCondition: dependent.dependentCondition,
      dependentField: hubspotField(dependent.dependentField as Record<string, unknown>),
    })),
  };
}

/** A definition in the site's (YAML) shape, completed the way HubSpot's v3 answer always is. */
export function hubspotForm(definition: { id: string } & Record<string, unknown>): FakeFormDefinition {
  const now = new Date().toISOString();
  const groups = (definition.fieldGroups as Array<Record<string, unknown>> | undefined) ?? [];
  const configuration = (definition.configuration as Record<string, unknown> | undefined) ?? {};
  const display = (definition.displayOptions as Record<string, unknown> | undefined) ?? {};
  return {
    formType: 'hubspot',
    name: 'Untitled form',
    createdAt: now,
    updatedAt: now,
    archived: false,
    ...definition,
    fieldGroups: groups.map((group) => ({
      groupType: 'default_group',
      richTextType: 'text',
      ...group,
      fields: ((group.fields as Array<Record<string, unknown>> | undefined) ?? []).map(hubspotField),
    })),
    configuration: {
      language: 'en',
      cloneable: true,
      editable: true,
      archivable: true,
      recaptchaEnabled: false,
      notifyContactOwner: false,
      notifyRecipients: [],
      createNewContactForNewEmail: false,
      prePopulateKnownValues: true,
      allowLinkToResetKnownValues: false,
      lifecycleStages: [],
      postSubmitAction: { type: 'thank_you', value: 'Thanks for submitting the form.' },
      ...configuration,
    },
    displayOptions: {
      renderRawHtml: false,
      theme: 'default_style',
      submitButtonText: 'Submit',
      style: {
        fontFamily: 'arial, helvetica, sans-serif',
        backgroundWidth: '100%',
        labelTextColor: '#33475b',
        labelTextSize: '14px',
        helpTextColor: '#7C98B6',
        helpTextSize: '11px',
        legalConsentTextColor: '#33475b',
        legalConsentTextSize: '14px',
        submitColor: '#ff7a59',
        submitAlignment: 'left',
        submitFontColor: '#ffffff',
        submitSize: '12px',
      },
      ...display,
    },
    legalConsentOptions: (definition.legalConsentOptions as Record<string, unknown> | undefined) ?? { type: 'none' },
  };
}

/** The fields HubSpot would refuse in a submission to this form, as its errors list them. */
function submissionErrors(form: FakeFormDefinition | undefined, fields: Array<{ name: string; value: string }>): Array<{ message: string; errorType: string }> {
  const errors: Array<{ message: string; errorType: string }> = [];
  const email = fields.find((field) => field.name === 'email');
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value))
    errors.push({ message: "Error in 'fields.email'. Invalid email address", errorType: 'INVALID_EMAIL' });
  if (!form) return errors;
  const known = new Map<string, Record<string, unknown>>();
  const visit = (field: Record<string, unknown>) => {
    known.set(String(field.name), field);
    for (const dependent of (field.dependentFields as Array<{ dependentField: Record<string, unknown> }> | undefined) ?? []) visit(dependent.dependentField);
  };
  for (const group of (form.fieldGroups as Array<{ fields?: Array<Record<string, unknown>> }> | undefined) ?? [])
    for (const field of group.fields ?? []) visit(field);
  for (const field of fields) {
    if (!known.has(field.name))
      errors.push({ message: `Error in 'fields.${field.name}'. Field not in form definition`, errorType: 'FIELD_NOT_IN_FORM_DEFINITION' });
  }
  const given = new Set(fields.filter((field) => field.value !== '').map((field) => field.name));
  for (const group of (form.fieldGroups as Array<{ fields?: Array<Record<string, unknown>> }> | undefined) ?? []) {
    for (const field of group.fields ?? []) {
      if (field.required && !field.hidden && !given.has(String(field.name)))
        errors.push({ message: `Error in 'fields.${field.name}'. Required field '${field.name}' is missing`, errorType: 'REQUIRED_FIELD' });
    }
  }
  return errors;
}

export async function startHubSpotFake(options: { port?: number; token?: string; formsFile?: string } = {}): Promise<HubSpotFake> {
  const token = options.token ?? FAKE_HUBSPOT_TOKEN;
  let failures: number[] = [];
  let nextId = 1001;

  const fake = {
    url: '',
    port: 0,
    token,
    contacts: new Map<string, FakeContact>(),
    posts: [] as FakeBlogPost[],
    tags: new Map<string, string>(),
    formSubmissions: [] as HubSpotFake['formSubmissions'],
    forms: new Map<string, FakeFormDefinition>(),
    addForm(definition: { id: string } & Record<string, unknown>) {
      const form = hubspotForm(definition);
      fake.forms.set(form.id, form);
      return form;
    },
    calls: [] as FakeCall[],
    delayMs: 0,
    submitDelayMs: 0,
    searchLagMs: 0,
    down: false,
    downFor: '',
    transactionalSends: [] as FakeTransactionalSend[],
    gdprDeletions: [] as HubSpotFake['gdprDeletions'],
    sendResults: new Map<string, string>(),
    transactionalPending: false,
    failNext(...statuses: number[]) {
      failures.push(...statuses);
    },
    addContact(email: string, properties: Record<string, string> = {}) {
      const now = new Date().toISOString();
      const contact: FakeContact = {
        id: String(nextId++),
        // As if the contact came from a form submission just now (HubSpot sets this on every one).
        properties: { email: email.toLowerCase(), recent_conversion_date: now, ...properties },
        createdAt: now,
        updatedAt: now,
        searchableAt: Date.now() + fake.searchLagMs,
      };
      contact.properties.hs_object_id = contact.id;
      fake.contacts.set(contact.id, contact);
      return contact;
    },
    findContact(email: string) {
      return [...fake.contacts.values()].find((c) => c.properties.email === email.toLowerCase());
    },
    reset() {
      failures = [];
      fake.contacts.clear();
      fake.posts = [];
      fake.tags.clear();
      fake.formSubmissions = [];
      fake.forms.clear();
      fake.calls = [];
      fake.delayMs = 0;
      fake.submitDelayMs = 0;
      fake.searchLagMs = 0;
      fake.down = false;
      fake.downFor = '';
      fake.transactionalSends = [];
      fake.gdprDeletions = [];
      fake.sendResults.clear();
      fake.transactionalPending = false;
    },
    close: async () => {},
  };

  /** A form HubSpot has: added to the fake, or written by the site's build (`formsFile`). */
  function formById(id: string): FakeFormDefinition | undefined {
    const known = fake.forms.get(id);
    if (known || !options.formsFile) return known;
    try {
      const built = JSON.parse(readFileSync(options.formsFile, 'utf8')) as Record<string, { id: string } & Record<string, unknown>>;
      return built[id] ? hubspotForm(built[id]) : undefined;
    } catch {
      return undefined;
    }
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const body = await readBody(req);

    // Control endpoints for tests that run the fake as a separate process.
    if (path.startsWith('/__fake/')) return control(path, body, res);

    fake.calls.push({ method: req.method ?? 'GET', path, body, authorization: req.headers.authorization });
    if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    if (fake.submitDelayMs && path.startsWith('/submissions/')) await new Promise((resolve) => setTimeout(resolve, fake.submitDelayMs));

    const named =
      fake.downFor !== '' && `${decodeURIComponent(req.url ?? '')} ${JSON.stringify(body ?? '')}`.toLowerCase().includes(fake.downFor.toLowerCase());
    if (fake.down || named) return hubspotError(res, 503, 'SERVICE_UNAVAILABLE', 'Service Unavailable');
    const failure = failures.shift();
    if (failure === 429) {
      return hubspotError(res, 429, 'RATE_LIMITS', 'You have reached your secondly limit.', { 'retry-after': '1' });
    }
    if (failure) return hubspotError(res, failure, 'INTERNAL_ERROR', 'Internal error');

    // The Forms submission API is unauthenticated (it is called on behalf of a visitor).
    const submit = path.match(/^\/submissions\/v3\/integration\/submit\/([^/]+)\/([^/]+)$/);
    if (submit && req.method === 'POST') {
      const fields = (body as { fields?: Array<{ name: string; value: string }> })?.fields;
      if (!Array.isArray(fields) || !fields.some((f) => f.name === 'email' && /@/.test(f.value))) {
        return send(res, 400, {
          status: 'error',
          message: 'The request is not valid',
          errors: [{ message: "Error in 'fields.email'. Invalid email address", errorType: 'INVALID_EMAIL' }],
        });
      }
      fake.formSubmissions.push({ portalId: submit[1]!, formGuid: submit[2]!, body });
      // Like HubSpot, a submission by a known contact marks it as their most recent conversion.
      const submitted = fake.findContact(fields.find((f) => f.name === 'email')!.value);
      if (submitted) submitted.properties.recent_conversion_date = new Date().toISOString();
      return send(res, 200, { inlineMessage: 'Thanks for submitting the form.' });
    }

    if (req.headers.authorization !== `Bearer ${token}`) {
      return hubspotError(res, 401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found.');
    }

    // The authenticated submission endpoint: checked against the form's definition, recorded with
    // the `submittedAt` the caller gives (the time HubSpot shows for the submission).
    const secure = path.match(/^\/submissions\/v3\/integration\/secure\/submit\/([^/]+)\/([^/]+)$/);
    if (secure && req.method === 'POST') {
      const formGuid = decodeURIComponent(secure[2]!);
      const form = formById(formGuid);
      if (!form) return send(res, 404, { status: 'error', message: `Form ${formGuid} not found`, correlationId: crypto.randomUUID() });
      const request = body as { fields?: Array<{ name: string; value: string }>; submittedAt?: string; context?: Record<string, unknown> } | undefined;
      if (!Array.isArray(request?.fields))
        return send(res, 400, {
          status: 'error',
          message: 'The request is not valid',
          correlationId: crypto.randomUUID(),
          errors: [{ message: "Error in 'fields'. Fields are required", errorType: 'INPUT_TOO_LARGE' }],
        });
      const errors = submissionErrors(form, request.fields);
      if (errors.length) return send(res, 400, { status: 'error', message: 'The request is not valid', correlationId: crypto.randomUUID(), errors });
      fake.formSubmissions.push({
        portalId: secure[1]!,
        formGuid,
        body,
        authenticated: true,
        conversionId: crypto.randomUUID(),
        recordedAt: Number(request.submittedAt) || Date.now(),
      });
      // Like HubSpot, a submission with an email creates or updates that contact with the contact
      // properties it carries, and marks it as their most recent conversion.
      const email = request.fields.find((field) => field.name === 'email')?.value;
      if (email) {
        const properties = Object.fromEntries(
          request.fields.filter((field) => ((field as { objectTypeId?: string }).objectTypeId ?? '0-1') === '0-1').map((field) => [field.name, field.value]),
        );
        const contact = fake.findContact(email) ?? fake.addContact(email);
        Object.assign(contact.properties, properties, { email: email.toLowerCase(), recent_conversion_date: new Date().toISOString() });
        contact.updatedAt = new Date().toISOString();
      }
      const action = (form.configuration as { postSubmitAction?: { type?: string; value?: string } } | undefined)?.postSubmitAction;
      return send(
        res,
        200,
        action?.type === 'redirect_url' ? { redirectUri: action.value } : { inlineMessage: action?.value ?? 'Thanks for submitting the form.' },
      );
    }

    // Forms v1: a form's submissions, newest first, 20 a page by default and 50 at most.
    const listed = path.match(/^\/form-integrations\/v1\/submissions\/forms\/([^/]+)$/);
    if (listed && req.method === 'GET') {
      const formGuid = decodeURIComponent(listed[1]!);
      if (!formById(formGuid)) return hubspotError(res, 404, 'OBJECT_NOT_FOUND', `Form ${formGuid} not found`);
      const limit = Math.min(Math.max(Number(url.searchParams.get('limit') ?? 20) || 20, 1), 50);
      const after = Number(url.searchParams.get('after') ?? 0) || 0;
      const all = fake.formSubmissions
        .filter((entry) => entry.formGuid === formGuid && entry.authenticated)
        .sort((a, b) => (b.recordedAt ?? 0) - (a.recordedAt ?? 0));
      const page = all.slice(after, after + limit);
      const next = after + limit < all.length ? String(after + limit) : undefined;
      return send(res, 200, {
        results: page.map((entry) => {
          const request = entry.body as { fields: Array<{ name: string; value: string }>; context?: { pageUri?: string } };
          return {
            conversionId: entry.conversionId,
            submittedAt: entry.recordedAt,
            values: request.fields.map(({ name, value }) => ({ name, value })),
            pageUrl: request.context?.pageUri ?? '',
          };
        }),
        ...(next ? { paging: { next: { after: next, link: `${fake.url}${path}?after=${next}&limit=${limit}` } } } : {}),
      });
    }

    if (path === '/marketing/v3/transactional/single-email/send' && req.method === 'POST') return singleSend(body, res);

    if (path === '/account-info/v3/details' && req.method === 'GET') {
      return send(res, 200, {
        portalId: 48526151,
        accountType: 'STANDARD',
        timeZone: 'US/Eastern',
        companyCurrency: 'USD',
        uiDomain: 'app.hubspot.com',
        dataHostingLocation: 'na1',
      });
    }

    if (path === '/crm/v3/objects/contacts/search' && req.method === 'POST') {
      const request = body as {
        filterGroups?: Array<{ filters?: Array<{ propertyName: string; operator: string; value?: string }> }>;
        properties?: string[];
        limit?: number;
      };
      const filters = request?.filterGroups?.flatMap((g) => g.filters ?? []) ?? [];
      const now = Date.now();
      const matches = [...fake.contacts.values()].filter(
        (contact) =>
          contact.searchableAt <= now &&
          filters.every((f) => f.operator !== 'EQ' || (contact.properties[f.propertyName] ?? '').toLowerCase() === String(f.value ?? '').toLowerCase()),
      );
      const wanted = request?.properties?.length ? request.properties : ['email', 'firstname', 'lastname'];
      return send(res, 200, {
        total: matches.length,
        results: matches.slice(0, request?.limit ?? 10).map((contact) => ({
          id: contact.id,
          properties: Object.fromEntries(['hs_object_id', 'createdate', 'lastmodifieddate', ...wanted].map((name) => [name, contact.properties[name] ?? null])),
          createdAt: contact.createdAt,
          updatedAt: contact.updatedAt,
          archived: false,
        })),
      });
    }

    // GDPR delete: the contact named by id, or by a unique property (`idProperty: "email"`); 204
    // with no body when deleted, 404 when there is no such contact.
    if (path === '/crm/v3/objects/contacts/gdpr-delete' && req.method === 'POST') {
      const request = (body ?? {}) as { objectId?: unknown; idProperty?: unknown };
      if (typeof request.objectId !== 'string' || request.objectId === '') return hubspotError(res, 400, 'VALIDATION_ERROR', 'objectId is required');
      if (request.idProperty !== undefined && request.idProperty !== 'email' && request.idProperty !== 'hs_object_id') {
        return hubspotError(res, 400, 'VALIDATION_ERROR', `${String(request.idProperty)} is not a unique property of contacts`);
      }
      const contact = request.idProperty === 'email' ? fake.findContact(request.objectId) : fake.contacts.get(request.objectId);
      fake.gdprDeletions.push({
        objectId: request.objectId,
        ...(typeof request.idProperty === 'string' ? { idProperty: request.idProperty } : {}),
        status: contact ? 204 : 404,
      });
      if (!contact) return hubspotError(res, 404, 'OBJECT_NOT_FOUND', 'resource not found');
      fake.contacts.delete(contact.id);
      res.writeHead(204);
      return res.end();
    }

    if (path === '/crm/v3/objects/contacts' && req.method === 'POST') {
      const properties = (body as { properties?: Record<string, string> })?.properties ?? {};
      if (!properties.email) return hubspotError(res, 400, 'VALIDATION_ERROR', 'Property values were not valid: email is required');
      if (fake.findContact(properties.email)) {
        return hubspotError(res, 409, 'CONFLICT', `Contact already exists. Existing ID: ${fake.findContact(properties.email)!.id}`);
      }
      const contact = fake.addContact(properties.email, properties);
      return send(res, 201, { id: contact.id, properties: contact.properties, createdAt: contact.createdAt, updatedAt: contact.updatedAt, archived: false });
    }

    const contactPath = path.match(/^\/crm\/v3\/objects\/contacts\/([^/]+)$/);
    if (contactPath && req.method === 'PATCH') {
      const contact = fake.contacts.get(contactPath[1]!);
      if (!contact) return hubspotError(res, 404, 'OBJECT_NOT_FOUND', 'resource not found');
      const properties = (body as { properties?: Record<string, string> })?.properties ?? {};
      Object.assign(contact.properties, properties);
      contact.updatedAt = new Date().toISOString();
      return send(res, 200, { id: contact.id, properties: contact.properties, createdAt: contact.createdAt, updatedAt: contact.updatedAt, archived: false });
    }
    if (contactPath && req.method === 'GET') {
      const contact = fake.contacts.get(contactPath[1]!);
      if (!contact) return hubspotError(res, 404, 'OBJECT_NOT_FOUND', 'resource not found');
      return send(res, 200, { id: contact.id, properties: contact.properties, createdAt: contact.createdAt, updatedAt: contact.updatedAt, archived: false });
    }

    const formPath = path.match(/^\/marketing\/v3\/forms\/([^/]+)$/);
    if (formPath && req.method === 'GET') {
      const form = fake.forms.get(decodeURIComponent(formPath[1]!));
      if (!form || (form.archived && url.searchParams.get('archived') !== 'true')) {
        return hubspotError(res, 404, 'OBJECT_NOT_FOUND', `Form ${formPath[1]} not found`);
      }
      return send(res, 200, form);
    }

    if (path === '/cms/v3/blogs/posts' && req.method === 'GET') {
      const limit = Math.min(Number(url.searchParams.get('limit') ?? 20), 100);
      const after = Number(url.searchParams.get('after') ?? 0);
      const page = fake.posts.slice(after, after + limit);
      const next = after + limit < fake.posts.length ? String(after + limit) : undefined;
      return send(res, 200, {
        total: fake.posts.length,
        results: page.map((post) => ({ state: 'PUBLISHED', currentState: 'PUBLISHED', ...post, url: `https://blog.example.org/${post.slug}` })),
        ...(next ? { paging: { next: { after: next, link: `${fake.url}/cms/v3/blogs/posts?after=${next}&limit=${limit}` } } } : {}),
      });
    }

    if (path === '/cms/v3/blogs/tags' && req.method === 'GET') {
      const results = [...fake.tags.entries()].map(([id, name]) => ({
        id,
        name,
        slug: name.toLowerCase().replace(/\W+/g, '-'),
        created: '2025-01-01T00:00:00Z',
        updated: '2025-01-01T00:00:00Z',
        deletedAt: '1970-01-01T00:00:00Z',
        language: 'en',
      }));
      return send(res, 200, { total: results.length, results });
    }

    return hubspotError(res, 404, 'OBJECT_NOT_FOUND', `No route for ${req.method} ${path}`);
  });

  /**
   * The transactional single-send (the transactional email add-on): `emailId` of a published
   * email, `message.to` required, `replyTo`/`cc`/`bcc` lists of addresses, custom properties for
   * the template. Only one email is sent per `sendId`: a repeat answers IDEMPOTENT_IGNORE (or
   * IDEMPOTENT_FAIL when the first was refused) and sends nothing.
   */
  function singleSend(body: unknown, res: ServerResponse): void {
    const request = (body ?? {}) as { emailId?: unknown; message?: Record<string, unknown>; customProperties?: unknown; contactProperties?: unknown };
    const context: Record<string, string[]> = {};
    const address = (value: unknown) => typeof value === 'string' && /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(value);
    if (!Number.isInteger(request.emailId) || (request.emailId as number) < 1) context.emailId = ['must be a valid email content id'];
    const message = request.message;
    if (!message || typeof message !== 'object') context.message = ['is required'];
    else {
      if (!address(message.to)) context['message.to'] = ['must be a valid email address'];
      for (const list of ['replyTo', 'cc', 'bcc']) {
        const value = message[list];
        if (value !== undefined && (!Array.isArray(value) || !value.every(address))) context[`message.${list}`] = ['must be a list of valid email addresses'];
      }
      if (message.sendId !== undefined && typeof message.sendId !== 'string') context['message.sendId'] = ['must be a string'];
      if (message.from !== undefined && typeof message.from !== 'string') context['message.from'] = ['must be a string'];
    }
    for (const map of ['customProperties', 'contactProperties'] as const) {
      const value = request[map];
      if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) context[map] = ['must be a map of property values'];
    }
    if (Object.keys(context).length) {
      return send(res, 400, {
        status: 'error',
        message: 'Invalid input JSON on line 1',
        correlationId: crypto.randomUUID(),
        category: 'VALIDATION_ERROR',
        context,
        errors: Object.entries(context).map(([field, messages]) => ({ code: 'INVALID', message: `${field} ${messages[0]}`, context: { [field]: messages } })),
      });
    }
    const now = new Date().toISOString();
    const to = String(message!.to).toLowerCase();
    const sendId = message!.sendId as string | undefined;
    const earlier = sendId ? fake.transactionalSends.find((sent) => sent.message.sendId === sendId) : undefined;
    if (earlier) {
      const sendResult = earlier.sendResult === 'SENT' || earlier.sendResult === 'QUEUED' ? 'IDEMPOTENT_IGNORE' : 'IDEMPOTENT_FAIL';
      return send(res, 200, { statusId: crypto.randomUUID(), status: 'COMPLETE', sendResult, requestedAt: now, startedAt: now, completedAt: now });
    }
    const sendResult = fake.sendResults.get(to) ?? fake.sendResults.get(`@${to.split('@')[1]}`) ?? 'SENT';
    const statusId = crypto.randomUUID();
    fake.transactionalSends.push({
      emailId: request.emailId as number,
      message: message as FakeTransactionalSend['message'],
      customProperties: (request.customProperties as Record<string, unknown>) ?? {},
      contactProperties: (request.contactProperties as Record<string, string>) ?? {},
      statusId,
      sendResult,
      requestedAt: now,
    });
    // Like HubSpot, the recipient becomes (or is found as) a contact.
    if (sendResult === 'SENT' && !fake.findContact(to)) fake.addContact(to, (request.contactProperties as Record<string, string>) ?? {});
    if (fake.transactionalPending) return send(res, 200, { statusId, status: 'PENDING', requestedAt: now });
    return send(res, 200, {
      statusId,
      status: 'COMPLETE',
      sendResult,
      requestedAt: now,
      startedAt: now,
      completedAt: now,
      eventId: { id: crypto.randomUUID(), created: now },
    });
  }

  function control(path: string, body: unknown, res: ServerResponse): void {
    const input = (body ?? {}) as Record<string, unknown>;
    switch (path) {
      case '/__fake/reset':
        fake.reset();
        return send(res, 200, { ok: true });
      case '/__fake/fail':
        fake.failNext(...((input.statuses as number[]) ?? []));
        return send(res, 200, { ok: true });
      case '/__fake/config':
        if (typeof input.delayMs === 'number') fake.delayMs = input.delayMs;
        if (typeof input.searchLagMs === 'number') fake.searchLagMs = input.searchLagMs;
        if (typeof input.down === 'boolean') fake.down = input.down;
        if (typeof input.downFor === 'string') fake.downFor = input.downFor;
        if (typeof input.transactionalPending === 'boolean') fake.transactionalPending = input.transactionalPending;
        if (input.sendResults && typeof input.sendResults === 'object')
          for (const [key, value] of Object.entries(input.sendResults)) fake.sendResults.set(key.toLowerCase(), String(value));
        return send(res, 200, { ok: true });
      case '/__fake/contacts':
        if (typeof input.email === 'string') {
          const contact = fake.addContact(input.email, (input.properties as Record<string, string>) ?? {});
          contact.searchableAt = Date.now();
          return send(res, 201, contact);
        }
        return send(res, 200, { contacts: [...fake.contacts.values()] });
      case '/__fake/forms':
        if (typeof input.id === 'string') return send(res, 201, fake.addForm(input as { id: string }));
        return send(res, 200, { forms: [...fake.forms.values()] });
      case '/__fake/calls':
        return send(res, 200, {
          calls: fake.calls,
          formSubmissions: fake.formSubmissions,
          transactionalSends: fake.transactionalSends,
          gdprDeletions: fake.gdprDeletions,
        });
      default:
        return send(res, 404, { error: 'unknown control path' });
    }
  }

  Object.assign(fake, await listen(server, options.port));
  return fake as HubSpotFake;
}

// Run as a process: node tests/fakes/hubspot.ts --port 8911
if (import.meta.url === `file://${process.argv[1]}`) {
  const option = (name: string) => {
    const index = process.argv.indexOf(name);
    return index > 0 ? process.argv[index + 1] : undefined;
  };
  const port = Number(option('--port') ?? 8911);
  const fake = await startHubSpotFake({ port, formsFile: option('--forms-file') });
  console.log(`HubSpot fake listening on ${fake.url}`);
}
