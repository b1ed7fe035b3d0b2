/**
 * `whenPainted(go)`: calls `go` once the page's first contentful paint is on the screen, two frames
 * later. The head's inline script defines it (src/layouts/BaseLayout.astro) for the two inline
 * scripts that wait for it, the script loader (./page-scripts.ts) and the beacon
 * (./analytics/beacon.ts). Neither `load` nor the next animation frame says the page is drawn: a
 * page with nothing left to fetch fires `load` before its first paint, and the first frames after
 * the document are often not the frame that paints (Chromium drew `/` three frames after the first
 * animation frame). The paint entry is reported only once its frame is presented; the two frames
 * after it leave room for a largest text drawn a frame after the rest. A request started before the
 * largest paint is on the screen counts into that paint in Lighthouse's simulation of a phone (LCP
 * 100-400 ms after FCP, issue 48). A browser that does not report paints, and a hidden tab, which
 * draws nothing, go at once; a page whose paint is never reported goes after three seconds. Kept
 * short and ES5: it is in every page, inside the 25 KB of script a page may have.
 */
export const whenPaintedScript =
  'window.whenPainted=function(g){var d,r=requestAnimationFrame,P=window.PerformanceObserver,n=function(){d||(d=r(function(){r(function(){setTimeout(g)})}))};if(document.hidden||!P||(P.supportedEntryTypes||[]).indexOf("paint")<0)return g();var o=new P(function(l){l.getEntriesByName("first-contentful-paint")[0]&&(o.disconnect(),n())});o.observe({type:"paint",buffered:!0});setTimeout(n,3e3)};';

/** Source that calls `go` (source of a function) through `whenPainted`; after this task where the head's script is missing. */
export const afterFirstPaint = (go: string) => `(window.whenPainted||setTimeout)(${go})`;

/**
 * The id of the picture a page opens with, when it is written into the page (./media.ts
 * `pictureLoading`). The page's head expects it (`<link rel="expect" href="#opening-picture"
 * blocking="render">`, BaseLayout's `opensWithPicture`), so the first frame is not drawn before it is
 * parsed: the picture is drawn with the text, not a frame or more after. Every route is checked for
 * the two to agree (tests/e2e/every-route.spec.ts): a picture without the expectation is drawn a
 * frame late; an expectation without the picture holds the first frame until the page is parsed.
 */
export const openingPicture = 'opening-picture';

/**
 * The id of the home hero's end (src/components/sections/HomeHero.astro): its card stays hidden
 * until the parser has reached this mark, so that the card, centred on the screen, is not drawn a
 * line at a time. The home pages' heads expect it too (BaseLayout's `opensWithHero`), or the first
 * frame could be the header alone with the headline, the largest paint, a frame or more after (on
 * /es at a 4x slower CPU: the header at 1,100 ms, the headline at 1,412). Every route is checked
 * for the two to agree (tests/e2e/every-route.spec.ts).
 */
export const heroEnd = 'hero-end';

/**
 * The id of the end of what a page shows on a phone's first screen, where a page marks it
 * (src/components/site/FirstScreenEnd.astro) and says so (BaseLayout's `marksFirstScreen`): its
 * head expects the mark, so the first frame holds all of that screen. Unblocked when `<main>` is
 * inserted, Chromium drew the header and the top of the hero and, one to three frames later, the
 * rest of the screen in about a third of the loads of /faqs, /es/faqs and /es/lead-the-change at a
 * 4x slower CPU (the largest text 80-300 ms after the first, issue 48). Every route is checked for
 * the mark and the expectation to agree (tests/e2e/every-route.spec.ts).
 */
export const firstScreenEnd = 'first-screen-end';

/**
 * The attribute of a picture that is not asked for before the first paint is on the screen
 * (./media.ts `pictureLoading`: every lazy poster and thumbnail). Chromium's lazy loading asks for
 * the pictures within 1,250 px or more of the screen as soon as the page is laid out, before its first
 * paint, and Lighthouse's simulation counts each request started before the largest paint into it
 * (/real-stories: five posters below the screen put LCP 50-80 ms after FCP, issue 48). With scripts
 * they are not displayed (global.css) until `whenPainted` marks the document `data-painted`
 * (`markPainted`); each sits in a box of its own size, so nothing moves when it comes. Without
 * scripts they load lazily as before.
 */
export const afterFirstPaintAttribute = 'data-after-first-paint';

/** Marks the document painted (`<html data-painted>`) once its first paint is on the screen; after `whenPaintedScript`. */
export const markPainted = "whenPainted(function(){document.documentElement.dataset.painted=''});";
