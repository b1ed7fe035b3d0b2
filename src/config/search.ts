/**
 * What the site search indexes (src/lib/search/build-index.ts, after `astro build`): content pages
 * only, the FAQs, blog posts and the public content pages; admin, booking, form, error and search
 * pages are left out. A glob of built files under dist/. Within a page only
 * <main data-pagefind-body> counts (the frame is outside it), without what is marked
 * data-pagefind-ignore: the attributes Pagefind defined, which the site kept when its search moved
 * to the server.
 */
export const indexedPages =
  '{index,why-this-matters,how-it-works,lead-the-change,real-stories,nominate-school,partnership-form,events-webinars,resources,webinar-share,faqs,blogs-insights,blogs-insights/*}.html';
