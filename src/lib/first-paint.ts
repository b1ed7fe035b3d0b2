/**
 * `whenPainted(go)`, as source for the pages' inline scripts (the script loader in
 * ./page-scripts.ts and the beacon in ./analytics/beacon.ts): calls `go` once the page's first
 * contentful paint is on the screen, two frames later. Neither `load` nor the next animation frame
 * says that: a page with nothing left to fetch fires `load` before it is drawn, and the first frames
 * after the document are often not the frame that paints (Chromium drew `/` three frames after the
 * first animation frame). The paint entry is reported only once its frame is presented. The two
 * frames after it leave room for a page whose parser stopped for a first paint of its header: its
 * largest text comes in the next frame. A request started before the largest paint is on the screen
 * counts into that paint in Lighthouse's simulation of a phone (LCP 100-400 ms after FCP, issue 48).
 * A browser that does not report paints, and a hidden tab, which draws nothing, go at once; a page
 * whose paint is never reported goes after three seconds. ES5, as the beacon is.
 */
export const whenPainted =
  'function(go){var done=0,types=window.PerformanceObserver&&PerformanceObserver.supportedEntryTypes||[];function run(){if(done)return;done=1;requestAnimationFrame(function(){requestAnimationFrame(function(){setTimeout(go)})})}if(document.visibilityState==="hidden"||types.indexOf("paint")<0)return go();var observer=new PerformanceObserver(function(list){if(list.getEntriesByName("first-contentful-paint").length){observer.disconnect();run()}});observer.observe({type:"paint",buffered:true});setTimeout(run,3000)}';
