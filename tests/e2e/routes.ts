/** Every route of the specification's route table, with the heading each page shows; each is a page of src/config/pages.ts (tests/unit/site-pages.test.ts). */
/** `navigation`: the main navigation's name, in the page's language, when not English's "Main". */
export const routes: Array<{ path: string; heading: RegExp; navigation?: string }> = [
  { path: '/', heading: /Transform Learning/ },
  { path: '/why-this-matters', heading: /Why This Matters/i },
  { path: '/how-it-works', heading: /How It Works/i },
  { path: '/lead-the-change', heading: /Lead the Change/i },
  { path: '/real-stories', heading: /Real Stories/i },
  { path: '/nominate-school', heading: /Nominate/i },
  { path: '/partnership-form', heading: /Partnership Application/ },
  { path: '/events-webinars', heading: /Events & Webinars/i },
  { path: '/blogs-insights', heading: /Blogs & Insights/i },
  { path: '/blogs-insights/why-two-hours-is-enough', heading: /two focused hours/i },
  { path: '/resources', heading: /Resources/i },
  { path: '/faqs', heading: /Frequently Asked Questions/i },
  { path: '/webhook-config', heading: /Webhook|Sign in/i },
  { path: '/thank-you', heading: /.+/ },
  { path: '/webinar-thank-you', heading: /Thank you for registering!/ },
  { path: '/webinar-share', heading: /Share the Revolution!/ },
  { path: '/form', heading: /Form/ },
  // Not in the specification: the results page of the header's search form.
  { path: '/search', heading: /^Search$/ },
  // The Spanish home (issue 48: the frame and the home first; docs/spanish.md).
  { path: '/es', heading: /Transforme el aprendizaje/, navigation: 'Principal' },
  { path: '/es/why-this-matters', heading: /^Por qué es importante$/, navigation: 'Principal' },
  { path: '/es/how-it-works', heading: /^Cómo funciona$/, navigation: 'Principal' },
  { path: '/es/faqs', heading: /^Preguntas frecuentes$/, navigation: 'Principal' },
  // Lead the change in Spanish: the email form in Spanish (issue 48, docs/spanish.md).
  { path: '/es/lead-the-change', heading: /Impulse el cambio/, navigation: 'Principal' },
  // The stories' cards and player in Spanish; the videos speak as recorded.
  { path: '/es/real-stories', heading: /^Historias reales$/, navigation: 'Principal' },
  // Nominate in Spanish: both paths, the school finder and the newsletter form in Spanish.
  { path: '/es/nominate-school', heading: /^Proponga su escuela$/, navigation: 'Principal' },
  // The partnership application in Spanish, its form included.
  { path: '/es/partnership-form', heading: /^Solicitud de colaboración$/, navigation: 'Principal' },
  // Where a booked call lands, in Spanish (the booking's details in the page's words).
  { path: '/es/thank-you', heading: /.+/, navigation: 'Principal' },
  // Events and webinars, the webinar's thank-you and share pages, and resources: the sign-up and
  // resources forms in Spanish (issue 48, docs/spanish.md).
  { path: '/es/events-webinars', heading: /^Eventos y seminarios web$/, navigation: 'Principal' },
  { path: '/es/webinar-thank-you', heading: /^¡Gracias por inscribirse!$/, navigation: 'Principal' },
  { path: '/es/webinar-share', heading: /^¡Comparta la revolución!$/, navigation: 'Principal' },
  { path: '/es/resources', heading: /^Recursos$/, navigation: 'Principal' },
  // The results page in Spanish, from the Spanish index (issue 48, docs/spanish.md).
  { path: '/es/search', heading: /^Buscar$/, navigation: 'Principal' },
  // The blog in Spanish: its list (Spanish posts, then English ones marked so) and a post (issue 48).
  { path: '/es/blogs-insights', heading: /^Blog y artículos$/, navigation: 'Principal' },
  { path: '/es/blogs-insights/why-two-hours-is-enough', heading: /dos horas de concentración/, navigation: 'Principal' },
];

/**
 * One route of each kind (a section page in both languages, a form page, the FAQs, an article, the
 * results): the routes of a kind share their layout, frame and scripts, so the gate (`npm test`)
 * checks these at every width and the full run (`npm run test:full`) the rest.
 */
export const oneOfEachKind: ReadonlySet<string> = new Set([
  '/',
  '/es',
  '/lead-the-change',
  '/faqs',
  '/blogs-insights/why-two-hours-is-enough',
  '/search?q=mastery',
]);
