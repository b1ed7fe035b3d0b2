import { afterEach, describe, expect, test, vi } from 'vitest';
import { embedScriptOrigins, hubspot, v4EmbedScriptUrl } from '../../src/config/forms';
import { isTrustedFormOrigin, normaliseV4Values, valuesFromPayload } from '../../src/lib/shared/hubspot-values';

describe('values of the legacy v2 embed', () => {
  test.each([
    [
      'onFormSubmitted data (submissionValues object)',
      { redirectUrl: '', submissionValues: { email: 'ana@example.org', school_name: ' Oakwood ' } },
      { email: 'ana@example.org', school_name: 'Oakwood' },
    ],
    [
      'hsFormCallback message data (name/value list)',
      [
        { name: 'email', value: 'ana@example.org' },
        { name: 'city', value: 'Austin' },
      ],
      { email: 'ana@example.org', city: 'Austin' },
    ],
    ['a message wrapped in data', { data: [{ name: 'email', value: 'ana@example.org' }] }, { email: 'ana@example.org' }],
    [
      'a checkbox group as repeated names',
      [
        { name: 'topics', value: 'math' },
        { name: 'topics', value: 'reading' },
      ],
      { topics: 'math;reading' },
    ],
    ['a checkbox group as a list', { submissionValues: { topics: ['math', 'reading'] } }, { topics: 'math;reading' }],
    ['missing values', { submissionValues: { email: null, city: undefined } }, { email: '', city: '' }],
    ['numbers and booleans', { submissionValues: { children: 2, consent: true } }, { children: '2', consent: 'true' }],
    ['list items without a name', [{ value: 'x' }, null, 'text', { name: 'email', value: 'a@b.org' }], { email: 'a@b.org' }],
    ['nothing', undefined, {}],
    ['a string', 'email=a@b.org', {}],
  ])('%s', (_case, payload, expected) => {
    expect(valuesFromPayload(payload)).toEqual(expected);
  });
});

describe('values of the v4 embed (getFormFieldValues)', () => {
  test.each([
    [
      'contact properties lose their 0-1/ prefix',
      [
        { name: '0-1/email', value: 'ana@example.org' },
        { name: '0-1/school_name', value: 'Oakwood' },
      ],
      { email: 'ana@example.org', school_name: 'Oakwood' },
    ],
    [
      'values are trimmed strings',
      [
        { name: '0-1/full_name', value: '  Ana Lopez ' },
        { name: '0-1/children', value: 2 },
        { name: '0-1/consent', value: false },
      ],
      { full_name: 'Ana Lopez', children: '2', consent: 'false' },
    ],
    ['multi-value fields are joined with ";"', [{ name: '0-1/topics', value: ['math', 'reading'] }], { topics: 'math;reading' }],
    [
      'a repeated name is joined like the v2 list',
      [
        { name: '0-1/topics', value: 'math' },
        { name: '0-1/topics', value: 'reading' },
      ],
      { topics: 'math;reading' },
    ],
    ['other objects keep their property name', [{ name: '0-2/name', value: 'Oakwood Academy' }], { name: 'Oakwood Academy' }],
    [
      'the contact property wins over another object of the same name',
      [
        { name: '0-2/email', value: 'office@oakwood.edu' },
        { name: '0-1/email', value: 'ana@example.org' },
      ],
      { email: 'ana@example.org' },
    ],
    [
      '…in either order',
      [
        { name: '0-1/email', value: 'ana@example.org' },
        { name: '0-2/email', value: 'office@oakwood.edu' },
      ],
      { email: 'ana@example.org' },
    ],
    [
      'of two other objects the first wins',
      [
        { name: '0-2/phone', value: '1' },
        { name: '2-123/phone', value: '2' },
      ],
      { phone: '1' },
    ],
    [
      'names without a prefix are kept (as contact properties)',
      [
        { name: 'email', value: 'a@b.org' },
        { name: '0-2/email', value: 'c@d.org' },
      ],
      { email: 'a@b.org' },
    ],
    [
      'a name that only looks prefixed is kept whole',
      [
        { name: '0-1email', value: 'x' },
        { name: '0-1/', value: 'y' },
      ],
      { '0-1email': 'x', '0-1/': 'y' },
    ],
    ['missing values are empty', [{ name: '0-1/city' }, { name: '0-1/state', value: null }], { city: '', state: '' }],
    [
      'items that are not fields are skipped',
      [null, 'x', { value: 'no name' }, { name: 7, value: 'x' }, { name: '0-1/email', value: 'a@b.org' }],
      { email: 'a@b.org' },
    ],
    ['not a list', { '0-1/email': 'a@b.org' }, {}],
    ['nothing', undefined, {}],
  ])('%s', (_case, fields, expected) => {
    expect(normaliseV4Values(fields)).toEqual(expected);
  });
});

describe('the embed scripts', () => {
  test.each([
    ['na1', '48526151', 'https://js.hsforms.net/forms/embed/48526151.js'],
    ['na2', '242567651', 'https://js-na2.hsforms.net/forms/embed/242567651.js'],
    ['eu1', '146425863', 'https://js-eu1.hsforms.net/forms/embed/146425863.js'],
  ])('the v4 script of a %s portal', (region, portalId, url) => {
    expect(v4EmbedScriptUrl(region, portalId)).toBe(url);
  });

  test.each([
    ['a host in the region', 'evil.example/x', '1'],
    ['an empty region', '', '1'],
    ['a portal that is not a number', 'na1', '1/../x'],
  ])('refuses %s', (_case, region, portalId) => {
    expect(() => v4EmbedScriptUrl(region, portalId)).toThrow(/PUBLIC_HUBSPOT_(REGION|PORTAL_ID)/);
  });

  test('are https, and the page policy allows only their hosts', () => {
    expect(hubspot.embedScriptUrl).toBe('https://js.hsforms.net/forms/embed/v2.js');
    expect(new URL(hubspot.embedV4ScriptUrl).protocol).toBe('https:');
    // With the default account (na1) both generations load from the same host.
    expect(embedScriptOrigins()).toEqual(['https://js.hsforms.net']);
  });
});

describe('choosing the embed of a form by environment', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  async function configWith(env: Record<string, string>) {
    for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
    vi.resetModules();
    return import('../../src/config/forms');
  }

  test('PUBLIC_EMBED_V4_FORMS puts forms on the v4 embed; the others stay on v2', async () => {
    const { forms } = await configWith({ PUBLIC_EMBED_FORMS: 'contact,partnership', PUBLIC_EMBED_V4_FORMS: ' contact , referSchool ' });
    expect(forms.contact).toMatchObject({ render: 'embed', embed: 'v4' });
    expect(forms.partnership).toMatchObject({ render: 'embed', embed: 'v2' });
    // A native form keeps its generation for when its definition falls back to the embed.
    expect(forms.referSchool).toMatchObject({ render: 'native', embed: 'v4' });
    expect(forms.newsletter).toMatchObject({ render: 'native', embed: 'v2' });
  });

  test.each([
    ['na1, no v4 form', { PUBLIC_HUBSPOT_REGION: 'na1' }, ['https://js.hsforms.net']],
    ['eu1, no v4 form', { PUBLIC_HUBSPOT_REGION: 'eu1' }, ['https://js.hsforms.net']],
    ['eu1 with a v4 form', { PUBLIC_HUBSPOT_REGION: 'eu1', PUBLIC_EMBED_V4_FORMS: 'contact' }, ['https://js.hsforms.net', 'https://js-eu1.hsforms.net']],
  ])('the script hosts of the page policy: %s', async (_case, env, origins) => {
    const { embedScriptOrigins } = await configWith(env);
    expect(embedScriptOrigins()).toEqual(origins);
  });

  test.each([
    ['PUBLIC_EMBED_FORMS', 'contact,newsleter'],
    ['PUBLIC_EMBED_V4_FORMS', 'referschool'],
  ])('a purpose in %s that names no form fails the build', async (name, value) => {
    await expect(configWith({ [name]: value })).rejects.toThrow(`${name} names no form`);
  });
});

describe('origins trusted for hsFormCallback messages', () => {
  test.each([
    ['the page itself', 'http://localhost:8888', true],
    ['HubSpot form hosts over https', 'https://forms.hsforms.com', true],
    ['HubSpot form hosts over http', 'http://forms.hsforms.com', false],
    ['a look-alike host', 'https://evilhsforms.com', false],
    ['another site', 'https://example.org', false],
    ['garbage', 'not a url', false],
  ])('%s', (_case, origin, trusted) => {
    expect(isTrustedFormOrigin(origin, 'http://localhost:8888')).toBe(trusted);
  });
});
