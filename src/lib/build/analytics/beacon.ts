/**
 * The pages' beacon, inlined at the end of every page (src/layouts/BaseLayout.astro) and hashed
 * into its CSP: about 850 bytes, no cookie, no storage, no id. After the page has loaded it sends
 * a page view once the page's first paint is on the screen (../first-paint.ts: a request started
 * before it counts into the largest paint in Lighthouse's simulation of a phone), and a page the
 * browser prerendered counts once it is shown, not when it is made; the
 * first focus in a form sends a form start (the form's purpose); a share button sends a share (its
 * channel). Only the query parameters that name a campaign, an ambassador or an
 * experiment variant go with it, and only the referring page's address without its query. A
 * browser that asks not to be counted (Do-Not-Track, Global Privacy Control) sends nothing.
 */
import { afterFirstPaint } from '../first-paint';

export const beaconScript = `(function(){var n=navigator,d=document,l=location;if(n.doNotTrack=="1"||n.globalPrivacyControl||!n.sendBeacon)return;function s(e,k){try{n.sendBeacon("/api/event",JSON.stringify({n:e,p:l.pathname,q:/utm_|ambassadorId|[?&]v=/.test(l.search)?l.search.slice(0,600):"",r:d.referrer.split(/[?#]/)[0].slice(0,600),k:k}))}catch(x){}}function v(){${afterFirstPaint('function(){s("page_view")}')}}addEventListener("load",function(){d.prerendering?d.onprerenderingchange=v:v()});d.addEventListener("focusin",function(e){var f=e.target.closest&&e.target.closest("[data-purpose]");if(f&&!f.counted){f.counted=1;s("form_start",f.dataset.purpose)}});d.addEventListener("click",function(e){var b=e.target.closest&&e.target.closest("[data-share-copy],[data-share-native],[data-share-app]");if(!b)return;var h=b.getAttribute("href")||"";s("share",b.hasAttribute("data-share-copy")?"copy":b.hasAttribute("data-share-native")?"native":/wa\\.me/.test(h)?"whatsapp":/^sms:/.test(h)?"sms":/^mailto:/.test(h)?"email":"other")})})()`;
