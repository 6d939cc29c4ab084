// The element's theme: the system's light or dark, forced colors (their system colors read
// through a probe node), and the host page's --liftboard-* custom properties (card.js's
// `resolveTheme`), read again whenever any of them may have changed.
import { onImageSettled, resolveTheme } from "./card.js";

/** The theme in force for element `host`, its forced colors resolved through `probe`. */
export function readTheme(host, probe) {
  const cs = getComputedStyle(host);
  const forced = matchMedia("(forced-colors: active)").matches;
  let system = null;
  if (forced) {
    system = {};
    for (const name of ["Canvas", "CanvasText", "Highlight", "HighlightText", "GrayText"]) {
      probe.style.color = name;
      system[name] = getComputedStyle(probe).color;
    }
  }
  return resolveTheme({ dark: matchMedia("(prefers-color-scheme: dark)").matches, forced, system,
    prop: (name) => cs.getPropertyValue(name) });
}

/**
 * Watches what the theme follows: `changed()` when the system's light/dark or forced colors
 * change or the host page switches its own theme (a class, style or data-theme on itself, the
 * element or the body); `imageSettled()` when a card image loads or fails; `motionChanged()`
 * when reduced motion changes (the server applies it: the element reconnects). Returns stop().
 */
export function watchTheme(host, { changed, imageSettled, motionChanged }) {
  const queries = ["(prefers-color-scheme: dark)", "(forced-colors: active)"].map((q) => matchMedia(q));
  for (const q of queries) q.addEventListener("change", changed);
  const mo = new MutationObserver(changed);
  for (const el of [host, document.documentElement, document.body].filter(Boolean)) {
    mo.observe(el, { attributes: true, attributeFilter: ["class", "style", "data-theme"] });
  }
  const stopImages = onImageSettled(imageSettled);
  const motion = matchMedia("(prefers-reduced-motion: reduce)");
  motion.addEventListener("change", motionChanged);
  return () => {
    for (const q of queries) q.removeEventListener("change", changed);
    motion.removeEventListener("change", motionChanged);
    mo.disconnect();
    stopImages();
  };
}
