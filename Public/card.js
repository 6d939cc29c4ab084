// A cell drawn as a card (issue 25): title (`label`), `detail` wrapped to two lines, a rounded
// thumbnail (`image`), a `badge` pill, `tags` chips and an `accent` stripe, in a list row or a
// grid cell, in the theme the page is in. The cell's frame decides its size; the content is
// fitted into it (ellipsized, wrapped, clipped), never the other way round.
//
// The layout (`cardLayout`) and text fitting (`ellipsize`, `wrapLines`) are pure and tested
// under node (Tests/js/card.test.mjs); `drawCard` paints what the layout says; images load
// once per URL and are cached (`imageFor`), a failed one draws a placeholder.

/** The light and dark themes: what the canvas draws with before a host's overrides. */
export const LIGHT = {
  background: "#f5f5f7", card: "#ffffff", text: "#1d1d1f", secondary: "#6e6e73", header: "#6e6e73",
  chip: "#e5e5ea", chipText: "#1d1d1f", badge: "#1a73e8", badgeText: "#ffffff", placeholder: "#d1d1d6",
  placeholderGlyph: "#8e8e93", separator: "rgba(0,0,0,0.08)", focus: "#1a73e8", slot: "#b0b0b5", shadow: "rgba(0,0,0,0.28)",
  button: "rgba(0,0,0,0.55)", buttonText: "#ffffff", radius: 10, font: "system-ui, -apple-system, 'Segoe UI', sans-serif",
  lane: "#e9e9ee", forced: false, dark: false,
};
export const DARK = {
  ...LIGHT, background: "#000000", card: "#1c1c1e", text: "#f5f5f7", secondary: "#a1a1a6", header: "#a1a1a6",
  chip: "#3a3a3c", chipText: "#f5f5f7", badge: "#0a84ff", placeholder: "#3a3a3c", placeholderGlyph: "#8e8e93",
  separator: "rgba(255,255,255,0.12)", focus: "#0a84ff", slot: "#636366", shadow: "rgba(0,0,0,0.6)",
  button: "rgba(255,255,255,0.25)", lane: "#161618", dark: true,
};

/** The CSS custom properties a host page sets to override the theme, and the keys they set. */
export const THEME_PROPERTIES = {
  "--liftboard-background": "background", "--liftboard-card": "card", "--liftboard-text": "text",
  "--liftboard-radius": "radius", "--liftboard-font": "font",
};

/**
 * The theme to draw with: light or dark, or the system's colors under forced colors (Windows
 * high contrast: `system` maps Canvas, CanvasText, Highlight, HighlightText, GrayText to the
 * colors in force), with the host's custom properties (`prop(name)`, "" when unset) on top.
 */
export function resolveTheme({ dark = false, forced = false, prop = () => "", system = null } = {}) {
  let t = { ...(dark ? DARK : LIGHT) };
  if (forced && system) {
    t = {
      ...t, forced: true, background: system.Canvas, card: system.Canvas, text: system.CanvasText,
      secondary: system.CanvasText, header: system.CanvasText, chip: system.Canvas, chipText: system.CanvasText,
      badge: system.Highlight, badgeText: system.HighlightText, placeholder: system.Canvas,
      placeholderGlyph: system.GrayText, separator: system.CanvasText, focus: system.Highlight, slot: system.GrayText,
      button: system.Highlight, buttonText: system.HighlightText, lane: system.Canvas,
    };
  }
  for (const [name, key] of Object.entries(THEME_PROPERTIES)) {
    const v = String(prop(name) || "").trim();
    if (!v || (forced && key !== "radius" && key !== "font")) continue;  // forced colors win over a host's
    if (key === "radius") { const r = parseFloat(v); if (Number.isFinite(r) && r >= 0) t.radius = r; }
    else t[key] = v;
  }
  return t;
}

// --- Text fitting: pure, `measure(text)` gives a width in CSS px.

/** `text` cut to fit `width`, with "…" when cut. */
export function ellipsize(measure, text, width) {
  if (!text) return "";
  if (measure(text) <= width) return text;
  if (measure("…") > width) return "";
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(text.slice(0, mid).trimEnd() + "…") <= width) lo = mid; else hi = mid - 1;
  }
  return text.slice(0, lo).trimEnd() + "…";
}

/**
 * `text` broken into at most `maxLines` lines of at most `width`: at spaces, a word longer
 * than a line broken where it must; the last line ellipsized when text remains.
 */
export function wrapLines(measure, text, width, maxLines) {
  const words = String(text || "").split(/\s+/).filter(Boolean);
  const lines = [];
  let k = 0;
  while (k < words.length && lines.length < maxLines) {
    const last = lines.length === maxLines - 1;
    if (last) { lines.push(ellipsize(measure, words.slice(k).join(" "), width)); break; }
    let line = words[k];
    if (measure(line) > width) {
      // A word wider than the line: as much of it as fits, the rest on the next line.
      let n = 1;
      while (n < line.length && measure(line.slice(0, n + 1)) <= width) n++;
      lines.push(line.slice(0, n));
      words[k] = line.slice(n);
      continue;
    }
    k++;
    while (k < words.length && measure(line + " " + words[k]) <= width) line += " " + words[k++];
    lines.push(line);
  }
  return lines;
}

// --- Layout: where each part of a card goes, from its frame alone.

export const FONTS = {
  title: (f) => `600 15px ${f}`, detail: (f) => `400 13px ${f}`, badge: (f) => `600 12px ${f}`,
  tag: (f) => `600 11px ${f}`, header: (f) => `700 13px ${f}`, subtitle: (f) => `400 12px ${f}`,
};
const TITLE_H = 20, DETAIL_H = 17, TAGS_H = 22, TAG_H = 18, BADGE_H = 20;

/** The card's own rectangle inside its cell's frame (the gap between rows and columns). */
export function cardRect(f) {
  return { x: f.x + 6, y: f.y + 2, w: f.w - 12, h: f.h - 4 };
}

/**
 * Where each part of `cell` goes in frame `f`: `{card, stripe?, thumb?, title, detail[],
 * badge?, tags[], more?}`, every text already fitted. `grid`: the thumbnail fills the top of the
 * card; otherwise it leads the row. `trailing`: room the row keeps at its right end (a
 * selection check, the "⋯" button, a drag handle). `measure(font, text)` gives a width.
 */
export function cardLayout(cell, f, { grid = false, trailing = 0, leading = 0, measure, font = LIGHT.font }) {
  const card = cardRect(f);
  const out = { card, title: null, detail: [], tags: [], badge: null, thumb: null, stripe: null };
  if (cell.accent) out.stripe = { x: card.x, y: card.y, w: 4, h: card.h };
  const m = (kind) => (text) => measure(FONTS[kind](font), text);
  let x0 = card.x + 14 + leading, top = card.y, bottom = card.y + card.h;
  let x1 = card.x + card.w - 12 - trailing;
  if (cell.image && grid) {
    out.thumb = { x: card.x, y: card.y, w: card.w, h: Math.round(card.h * 0.5), r: 0 };
    top = out.thumb.y + out.thumb.h;
  } else if (cell.image) {
    const s = Math.max(0, Math.min(card.h - 12, 64));
    out.thumb = { x: x0, y: Math.round(card.y + (card.h - s) / 2), w: s, h: s, r: 8 };
    x0 += s + 12;
  }
  if (cell.badge) {
    const text = ellipsize(m("badge"), String(cell.badge), 64);
    const w = Math.max(BADGE_H, Math.ceil(m("badge")(text)) + 14);
    if (grid && out.thumb) out.badge = { x: card.x + card.w - 8 - w, y: card.y + 8, w, h: BADGE_H, text };
    else {
      out.badge = { x: x1 - w, y: 0, w, h: BADGE_H, text };
      x1 -= w + 10;
    }
  }
  const width = Math.max(0, x1 - x0);
  // What fits, in this order: the title, a line of detail, the tags, a second line of detail.
  const room = bottom - top - (grid ? 12 : 8);
  let detailLines = 0, showTags = false, used = TITLE_H;
  if (cell.detail && used + DETAIL_H <= room) { detailLines = 1; used += DETAIL_H; }
  if (cell.tags?.length && used + TAGS_H <= room) { showTags = true; used += TAGS_H; }
  if (cell.detail && detailLines === 1 && used + DETAIL_H <= room) { detailLines = 2; used += DETAIL_H; }
  // A detail shorter than the lines it may take takes only its own: the block is centred on what is drawn.
  const detail = detailLines > 0 ? wrapLines(m("detail"), cell.detail, width, detailLines) : [];
  used -= DETAIL_H * (detailLines - detail.length);
  let y = grid ? top + 6 : Math.round(top + (bottom - top - used) / 2);
  out.title = { x: x0, y: y + TITLE_H / 2, text: ellipsize(m("title"), cell.label || "", width) };
  if (out.badge && !(grid && out.thumb)) out.badge.y = Math.round(card.y + (card.h - BADGE_H) / 2);
  y += TITLE_H;
  for (const line of detail) {
    out.detail.push({ x: x0, y: y + DETAIL_H / 2, text: line });
    y += DETAIL_H;
  }
  if (showTags) {
    const ty = grid ? bottom - 6 - TAG_H : y + (TAGS_H - TAG_H) / 2 + 1;
    let x = x0;
    for (const tag of cell.tags.slice(0, 5)) {
      const max = x1 - x;
      if (max < 28) break;
      const text = ellipsize(m("tag"), String(tag.text || ""), Math.min(96, max - 14));
      if (!text || text === "…") break;
      const w = Math.ceil(m("tag")(text)) + 14;
      out.tags.push({ x, y: ty, w, h: TAG_H, text, color: tag.color || "" });
      x += w + 6;
    }
  }
  return out;
}

// --- Colors.

/** Black or white, whichever reads better on `color` (#rgb or #rrggbb; white otherwise). */
export function textOn(color) {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(String(color || "").trim());
  if (!m) return "#ffffff";
  let h = m[1];
  if (h.length === 3) h = h.split("").map((c) => c + c).join("");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return lum > 0.4 ? "#1d1d1f" : "#ffffff";
}

// --- Images: loaded once per URL, cached; a failed one stays failed (a placeholder).

const images = new Map();  // url -> {img, state: "loading" | "ready" | "failed"}
const imageListeners = new Set();

/** Calls `fn` whenever an image finishes loading (or fails); returns how to stop. */
export function onImageSettled(fn) {
  imageListeners.add(fn);
  return () => imageListeners.delete(fn);
}

/** The cache entry for `path` (a path on the server that served this module), loading it once. */
export function imageFor(path) {
  const url = new URL(path, import.meta.url).href;
  let e = images.get(url);
  if (!e) {
    const img = new Image();
    e = { img, state: "loading" };
    images.set(url, e);
    const settled = (state) => () => { e.state = state; for (const fn of imageListeners) fn(url, state); };
    img.onload = settled("ready");
    img.onerror = settled("failed");
    img.decoding = "async";
    img.src = url;
  }
  return e;
}

/** What the image cache holds (tests and debugging): url -> state. */
export function imageStates() {
  return Object.fromEntries([...images].map(([url, e]) => [url, e.state]));
}

// --- Drawing.

export function roundRect(ctx, x, y, w, h, r) {
  const rr = Math.max(0, Math.min(r, w / 2, h / 2));
  ctx.beginPath();
  ctx.moveTo(x + rr, y);
  ctx.arcTo(x + w, y, x + w, y + h, rr);
  ctx.arcTo(x + w, y + h, x, y + h, rr);
  ctx.arcTo(x, y + h, x, y, rr);
  ctx.arcTo(x, y, x + w, y, rr);
  ctx.closePath();
}

// Measuring text is the costliest part of a frame: each (font, text) width is kept.
const widths = new Map();
/** `(font, text) => width` on `ctx`, each width measured once (the renderer's bars use it too). */
export function measurer(ctx) {
  return (font, text) => {
    const key = font + "|" + text;
    let w = widths.get(key);
    if (w === undefined) {
      ctx.font = font;
      w = ctx.measureText(text).width;
      if (widths.size > 20000) widths.clear();
      widths.set(key, w);
    }
    return w;
  };
}

function drawPlaceholder(ctx, t, box) {
  ctx.fillStyle = t.placeholder;
  ctx.fillRect(box.x, box.y, box.w, box.h);
  // A picture glyph: a sun and a hill, in the middle.
  const s = Math.min(box.w, box.h) * 0.4, cx = box.x + box.w / 2, cy = box.y + box.h / 2;
  ctx.fillStyle = t.placeholderGlyph;
  ctx.beginPath();
  ctx.arc(cx + s * 0.22, cy - s * 0.2, s * 0.12, 0, Math.PI * 2);
  ctx.fill();
  ctx.beginPath();
  ctx.moveTo(cx - s / 2, cy + s * 0.3);
  ctx.lineTo(cx - s * 0.12, cy - s * 0.1);
  ctx.lineTo(cx + s * 0.12, cy + s * 0.12);
  ctx.lineTo(cx + s * 0.25, cy + s * 0.02);
  ctx.lineTo(cx + s / 2, cy + s * 0.3);
  ctx.closePath();
  ctx.fill();
}

function drawThumb(ctx, t, thumb, cell, grid) {
  ctx.save();
  if (grid) { roundRect(ctx, thumb.x, thumb.y, thumb.w, thumb.h + t.radius, t.radius); }
  else roundRect(ctx, thumb.x, thumb.y, thumb.w, thumb.h, thumb.r);
  ctx.clip();
  const e = imageFor(cell.image);
  if (e.state === "ready" && e.img.naturalWidth > 0) {
    // Cover: the image fills the box, cropped to its aspect.
    const iw = e.img.naturalWidth, ih = e.img.naturalHeight;
    const k = Math.max(thumb.w / iw, thumb.h / ih);
    const sw = thumb.w / k, sh = thumb.h / k;
    ctx.drawImage(e.img, (iw - sw) / 2, (ih - sh) / 2, sw, sh, thumb.x, thumb.y, thumb.w, thumb.h);
  } else {
    drawPlaceholder(ctx, t, thumb);
  }
  ctx.restore();
}

/** Whether `cell` draws as a card (it has any of the rich fields) rather than a colored bar. */
export function isRich(cell) {
  return !!(cell && (cell.detail || cell.image || cell.badge || cell.accent || (cell.tags && cell.tags.length)));
}

/**
 * Draws `cell` as a card in frame `f`. `opts`: `{theme, grid, trailing, leading}`. Returns the
 * layout it drew (tests read where each part went).
 */
export function drawCard(ctx, cell, f, opts) {
  const t = opts.theme || LIGHT;
  const L = cardLayout(cell, f, { grid: opts.grid, trailing: opts.trailing || 0, leading: opts.leading || 0,
    measure: measurer(ctx), font: t.font });
  const c = L.card;
  roundRect(ctx, c.x, c.y, c.w, c.h, t.radius);
  ctx.fillStyle = t.card;
  ctx.fill();
  ctx.shadowColor = "transparent";  // a lifted card's shadow is its own, not its text's
  if (t.forced || !t.dark) {
    ctx.lineWidth = t.forced ? 1 : 0.5;
    ctx.strokeStyle = t.separator;
    ctx.stroke();
  }
  if (L.thumb) drawThumb(ctx, t, L.thumb, cell, opts.grid);
  if (L.stripe) {
    ctx.save();
    roundRect(ctx, c.x, c.y, c.w, c.h, t.radius);
    ctx.clip();
    ctx.fillStyle = t.forced ? t.focus : cell.accent;
    ctx.fillRect(L.stripe.x, L.stripe.y, L.stripe.w, L.stripe.h);
    ctx.restore();
  }
  ctx.save();
  roundRect(ctx, c.x, c.y, c.w, c.h, t.radius);
  ctx.clip();
  ctx.textBaseline = "middle";
  ctx.textAlign = "start";
  ctx.fillStyle = t.text;
  ctx.font = FONTS.title(t.font);
  ctx.fillText(L.title.text, L.title.x, L.title.y);
  ctx.fillStyle = t.secondary;
  ctx.font = FONTS.detail(t.font);
  for (const d of L.detail) ctx.fillText(d.text, d.x, d.y);
  ctx.font = FONTS.tag(t.font);
  for (const tag of L.tags) {
    roundRect(ctx, tag.x, tag.y, tag.w, tag.h, tag.h / 2);
    ctx.fillStyle = t.forced || !tag.color ? t.chip : tag.color;
    ctx.fill();
    if (t.forced) { ctx.lineWidth = 1; ctx.strokeStyle = t.chipText; ctx.stroke(); }
    ctx.fillStyle = t.forced || !tag.color ? t.chipText : textOn(tag.color);
    ctx.fillText(tag.text, tag.x + 7, tag.y + tag.h / 2 + 0.5);
  }
  if (L.badge) {
    const b = L.badge;
    roundRect(ctx, b.x, b.y, b.w, b.h, b.h / 2);
    ctx.fillStyle = t.badge;
    ctx.fill();
    ctx.fillStyle = t.badgeText;
    ctx.font = FONTS.badge(t.font);
    ctx.textAlign = "center";
    ctx.fillText(b.text, b.x + b.w / 2, b.y + b.h / 2 + 0.5);
    ctx.textAlign = "start";
  }
  ctx.restore();
  return L;
}

/** The "⋯" button's circle on a focused or selected cell (touch and pen open "Move to…" with it). */
export function moreButton(f, grid, selected) {
  const r = 14;
  if (grid) return { x: f.x + 6 + 6 + r, y: f.y + 2 + 6 + r, r };
  return { x: f.x + f.w - (selected ? 56 : 28), y: f.y + f.h / 2, r };
}

export function drawMoreButton(ctx, t, b) {
  ctx.beginPath();
  ctx.arc(b.x, b.y, b.r, 0, Math.PI * 2);
  ctx.fillStyle = t.button;
  ctx.fill();
  ctx.fillStyle = t.buttonText;
  for (const dx of [-6, 0, 6]) {
    ctx.beginPath();
    ctx.arc(b.x + dx, b.y, 1.8, 0, Math.PI * 2);
    ctx.fill();
  }
}

/**
 * A section's header: its title, its `subtitle` after it, and its item count at the right.
 * `width`: the header's width.
 */
export function drawHeader(ctx, t, s, width) {
  const measure = measurer(ctx);
  const mid = s.frame.y + (s.header || 32) / 2;
  ctx.textBaseline = "middle";
  const count = s.count === undefined ? "" : String(s.count);
  let right = width - 16;
  if (count) {
    ctx.font = FONTS.header(t.font);
    ctx.fillStyle = t.header;
    ctx.textAlign = "right";
    ctx.fillText(count, right, mid);
    ctx.textAlign = "start";
    right -= measure(FONTS.header(t.font), count) + 12;
  }
  const title = ellipsize((x) => measure(FONTS.header(t.font), x), (s.title || "").toUpperCase(), right - 16);
  ctx.font = FONTS.header(t.font);
  ctx.fillStyle = t.header;
  ctx.fillText(title, 16, mid);
  if (s.subtitle) {
    const x = 16 + measure(FONTS.header(t.font), title) + 10;
    const sub = ellipsize((x2) => measure(FONTS.subtitle(t.font), x2), s.subtitle, right - x);
    ctx.font = FONTS.subtitle(t.font);
    ctx.fillStyle = t.secondary;
    if (sub) ctx.fillText(sub, x, mid + 0.5);
  }
}
