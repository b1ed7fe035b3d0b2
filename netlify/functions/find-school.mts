import type { Config } from '@netlify/functions';
import { escapeHtml, inputClass, labelClass } from '../../src/lib/forms/render';
import { SUGGEST_QUERY_MAX } from '../../src/lib/schools';
import { buttonClass } from '../../src/lib/ui';
import { actions, heading, lead, responsePage } from '../../src/server/pages/frame';
import { StoreUnavailableError } from '../../src/server/http';
import { schoolPageHref } from '../../src/server/schools/pages';
import { suggestSchools } from '../../src/server/schools/records';

/**
 * GET /find-school?q=…: the schools the site knows, for a visitor without JavaScript (the email form
 * and /nominate-school link here; with JavaScript their school field suggests as one types). Each
 * verified school links to its page, whose email form is filled from its record. A school the site
 * does not know can still be written to: the parent types it in the form, and staff check it.
 */
export default async (req: Request): Promise<Response> => {
  const raw = new URL(req.url).searchParams.get('q') ?? '';
  // eslint-disable-next-line no-control-regex
  const q = raw
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .trim()
    .slice(0, SUGGEST_QUERY_MAX);
  const form = `<form method="get" action="/find-school" role="search" class="mt-6 flex flex-wrap items-end gap-3"><div class="min-w-64 grow"><label for="find-school-q" class="${labelClass}">Your school’s name or city</label><input id="find-school-q" name="q" type="search" value="${escapeHtml(q)}" maxlength="${SUGGEST_QUERY_MAX}" autocomplete="off" class="${inputClass}"></div><button type="submit" class="${buttonClass('primary', 'md')}">Find my school</button></form>`;
  const write = `<a class="${buttonClass('secondary', 'md')}" href="/lead-the-change#email-form">Write to a school we don’t know yet</a>`;
  try {
    const schools = q ? await suggestSchools(q, 20) : [];
    const results = !q
      ? ''
      : schools.length === 0
        ? `<p class="mt-8 text-ink-soft" role="status">We don’t know a school called “${escapeHtml(q)}” yet. You can still write to it: type its name and the address of its head in the email form. Our team checks new schools before they get a page.</p>`
        : `<p class="mt-8 text-ink-soft" role="status">${schools.length === 1 ? 'One school we know matches' : `${schools.length} schools we know match`} “${escapeHtml(q)}”.</p><ul class="mt-4 space-y-3">${schools
            .map(
              (school) =>
                `<li class="rounded-card border border-line bg-white p-5 shadow-card"><p class="text-lg font-bold">${escapeHtml(school.name)}${school.city ? `<span class="font-normal text-muted">, ${escapeHtml(school.city)}</span>` : ''}</p>${school.leaders.length ? `<p class="mt-1 text-sm text-ink-soft">${school.leaders.map((leader) => escapeHtml([leader.name, leader.role].filter(Boolean).join(', ') || leader.address)).join('; ')}</p>` : ''}<a class="mt-3 inline-flex ${buttonClass('primary', 'sm')}" href="${escapeHtml(`${schoolPageHref({ key: school.key, slug: null })}#email-form`)}">Write to ${escapeHtml(school.name)}</a></li>`,
            )
            .join('')}</ul>`;
    return responsePage(
      `${heading('Find your school')}${lead('Schools our team has checked: the letter goes to the address on their record, and their page counts every parent who writes.')}${form}${results}${actions(write)}`,
      { title: 'Find your school' },
    );
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) console.error('[find-school]', error instanceof Error ? error.message : 'unknown error');
    return responsePage(
      `${heading('Find your school')}${lead('We could not search our list of schools just now. You can still write to your school in the email form.')}${form}${actions(write)}`,
      { status: 503, title: 'Find your school' },
    );
  }
};

export const config: Config = {
  path: '/find-school',
  rateLimit: { windowLimit: 120, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
