// Animation curves, as Core Animation names them. Pure functions of progress in [0, 1].

/** @param {string} name @param {number} p progress, clamped to [0, 1] */
export function ease(name, p) {
  const t = Math.min(1, Math.max(0, p));
  switch (name) {
    case "linear": return t;
    case "easeOut": return 1 - (1 - t) ** 3;
    case "easeInOut": return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
    default: return t;
  }
}

/** An animated value: from what was shown to a target, over `dur` ms from `start`. */
export function animation(from, to, start, dur, curve) {
  return { from, to, start, dur: Math.max(0, dur || 0), ease: curve || "linear" };
}

/** Where an animation stands at `now`: numbers, or objects of numbers ({x, y, w, h}). */
export function valueAt(a, now) {
  if (a.dur <= 0 || now >= a.start + a.dur) return a.to;
  const k = ease(a.ease, (now - a.start) / a.dur);
  if (typeof a.to === "number") return a.from + (a.to - a.from) * k;
  const out = {};
  for (const key of Object.keys(a.to)) out[key] = a.from[key] + (a.to[key] - a.from[key]) * k;
  return out;
}

export function isRunning(a, now) {
  return a.dur > 0 && now < a.start + a.dur;
}

/** Retargets `a` to `to`: the new animation starts from what is shown at `now`. */
export function retarget(a, to, now, dur, curve) {
  return animation(a ? valueAt(a, now) : to, to, now, dur, curve);
}
