// Draws a scene on a canvas. The only place that applies devicePixelRatio; no layout math:
// every rectangle comes from the scene, which came from the server.
import { valueAt } from "./easing.js";
import { HELD_ALPHA, drawPresence } from "./presence-view.js";
import { cellOpacity, inGrid } from "./scene.js";
import {
  CHEVRON_BAND, ChevronSprites, drawChevron, drawGuides, drawInsertionLines, drawSubtreeBadge, fillGuideRuns, guideRuns, indentOf, isTree,
} from "./tree-view.js";
import { LIGHT, drawCard, drawHeader, drawMoreButton, ellipsize, isRich, measurer, moreButton, roundRect } from "./card.js";

/** The display's device pixels per CSS pixel: read here and nowhere else. */
export function pixelRatio() {
  return window.devicePixelRatio || 1;
}

/** The chevrons' sprites (tree-view.js), kept across frames. */
const chevronSprites = new ChevronSprites();

/** A drag handle's grip: three short bars inside the 44 px band of the cell's edge. */
function drawGrip(ctx, f, edge, color) {
  const x = edge === "leading" ? f.x + 14 : f.x + f.w - 30;
  ctx.fillStyle = color;
  for (let k = -1; k <= 1; k++) ctx.fillRect(x, f.y + f.h / 2 + k * 6 - 1, 16, 2);
}

/** The badge of a snapshot over a section that refuses it: a no-entry sign at its top-left
 * corner (the top-right one is the multi-item count's). */
function drawForbidden(ctx, f) {
  const x = f.x + 14, y = f.y + 4;
  ctx.beginPath();
  ctx.arc(x, y, 11, 0, 2 * Math.PI);
  ctx.fillStyle = "#d93025";
  ctx.fill();
  ctx.fillStyle = "#fff";
  ctx.fillRect(x - 6, y - 2, 12, 4);
}

/** A cell: a card when it has rich fields (card.js), else a colored bar with its label; the
 * "⋯" button on it when `more`. `grid`: the cell is in a grid (the scene's layout says so),
 * so its card is drawn in grid form (its image on top). `tree`: a tree row (tree-view.js):
 * its label starts after the chevron's band, which wears the chevron when it has children
 * (stroked; or, `tree` being `{sprites, dpr}`, copied from tree-view.js's sprites). */
function drawItem(ctx, f, cell, grid, focused, look, more = false, tree = false) {
  const t = look.theme || LIGHT, lead = tree ? CHEVRON_BAND - 8 : 0;
  if (!isRich(cell)) drawCell(ctx, f, cell?.color, cell?.label, focused, cell?.selected, cell?.handle, t, false, lead);
  else {
    const selected = !!cell.selected;
    const trailing = (grid ? 0 : (selected ? 34 : 0) + (more ? 34 : 0)) + (cell.handle === "trailing" ? 30 : 0);
    drawCard(ctx, cell, f, { theme: t, grid, trailing, leading: (cell.handle === "leading" ? 28 : 0) + lead });
    drawCell(ctx, f, null, null, focused, selected, cell.handle, t, true);
  }
  if (tree && cell) {
    const color = isRich(cell) ? t.secondary : "#fff";
    if (tree.sprites) tree.sprites.draw(ctx, cell, f, color, tree.dpr); else drawChevron(ctx, cell, f, color);
  }
  if (more) drawMoreButton(ctx, t, moreButton(f, grid && isRich(cell), !!cell.selected));
}

/** A bar of `color` with its label; `overlayOnly`: only what goes over a card (selection,
 * grip, focus ring). */
function drawCell(ctx, f, color, label, focused, selected = false, handle = null, t = LIGHT, overlayOnly = false, lead = 0) {
  if (!overlayOnly) {
    roundRect(ctx, f.x + 6, f.y + 2, f.w - 12, f.h - 4, t.radius);
    ctx.fillStyle = color || "#888";
    ctx.fill();
  }
  if (selected) {
    // Selected (Ctrl/Meta or Shift click, Shift+Space): a white inner ring and a check.
    ctx.lineWidth = 3;
    ctx.strokeStyle = overlayOnly ? t.focus : "#fff";
    roundRect(ctx, f.x + 9, f.y + 5, f.w - 18, f.h - 10, Math.max(0, t.radius - 2));
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(f.x + f.w - 24, f.y + f.h / 2, 9, 0, Math.PI * 2);
    ctx.fillStyle = overlayOnly ? t.focus : "#fff";
    ctx.fill();
    ctx.strokeStyle = overlayOnly ? "#fff" : color || "#888";
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.moveTo(f.x + f.w - 28, f.y + f.h / 2);
    ctx.lineTo(f.x + f.w - 25, f.y + f.h / 2 + 3);
    ctx.lineTo(f.x + f.w - 20, f.y + f.h / 2 - 3);
    ctx.stroke();
  }
  if (!overlayOnly) {
    const font = `600 16px ${t.font}`, measure = measurer(ctx);
    const text = ellipsize((x) => measure(font, x), label || "", f.w - 40 - (handle ? 24 : 0) - lead);
    ctx.fillStyle = "#fff";
    ctx.font = font;
    ctx.textBaseline = "middle";
    ctx.fillText(text, (handle === "leading" ? f.x + 44 : f.x + 20) + lead, f.y + f.h / 2);
  }
  if (handle) drawGrip(ctx, f, handle, overlayOnly ? t.secondary : "rgba(255,255,255,0.85)");
  if (focused) {
    ctx.lineWidth = 3;
    ctx.strokeStyle = t.focus;
    roundRect(ctx, f.x + 3, f.y, f.w - 6, f.h, t.radius + 2);
    ctx.stroke();
  }
}

/**
 * Draws `scene` at time `now` into `canvas`, sizing its pixels to its CSS box at the display's
 * pixel ratio. `look`: `{theme, more}` (card.js's theme; `more(cell)`: whether the cell wears
 * the "⋯" button). Returns ms spent.
 */
export function draw(canvas, scene, now, look = {}) {
  const t0 = performance.now();
  const dpr = pixelRatio();
  const r = canvas.getBoundingClientRect();
  const pw = Math.round(r.width * dpr), ph = Math.round(r.height * dpr);
  if (canvas.width !== pw || canvas.height !== ph) { canvas.width = pw; canvas.height = ph; }
  const ctx = canvas.getContext("2d");
  const w = canvas.width / dpr, h = canvas.height / dpr;
  const theme = look.theme || LIGHT;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, w, h);
  if (scene.columns) drawColumns(ctx, scene, now, w, h, look);
  else drawStacked(ctx, scene, now, w, h, look);
  drawPresence(ctx, scene, now);  // others' holds: chips and their targets' markers
  drawSnapshots(ctx, scene, now, look);
  return performance.now() - t0;
}

/** Columns (kanban): the board scrolled sideways; each column a card-colored lane whose header
 *  stays put and whose body is clipped and scrolled on its own. */
function drawColumns(ctx, scene, now, w, h, look) {
  const theme = look.theme || LIGHT;
  const scrollX = valueAt(scene.scrollX, now);
  const bySection = new Map();
  for (const c of scene.cells.values()) {
    let list = bySection.get(c.section);
    if (!list) bySection.set(c.section, (list = []));
    list.push(c);
  }
  ctx.save();
  ctx.translate(-scrollX, 0);
  for (const s of scene.sections) {
    const f = s.frame, header = s.header ?? 40;
    if (f.x + f.w < scrollX || f.x > scrollX + w) continue;
    ctx.fillStyle = theme.lane ?? theme.background;
    roundRect(ctx, f.x, 0, f.w, h, theme.radius + 2);
    ctx.fill();
    const cells = bySection.get(s.id) || [];
    // The header: title, subtitle and count, as a list's, within the column's width.
    ctx.save();
    ctx.translate(f.x, 0);
    drawHeader(ctx, theme, s, f.w);
    ctx.restore();
    const scroll = scene.columnScroll.get(s.id);
    const sy = scroll ? valueAt(scroll, now) : 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(f.x, header, f.w, Math.max(0, h - header));
    ctx.clip();
    ctx.translate(0, -sy);
    if (s.slot) drawSlot(ctx, s.slot, theme);
    for (const c of cells) {
      if (c.hidden) continue;
      const cf = valueAt(c.frame, now);
      if (cf.y + cf.h < sy + header || cf.y > sy + h) continue;
      ctx.globalAlpha = cellOpacity(c, now) * (c.heldBy ? HELD_ALPHA : 1);
      drawItem(ctx, cf, c, inGrid(scene, c), scene.focus === c.id, look, !!look.more?.(c));
      ctx.globalAlpha = 1;
    }
    ctx.restore();
  }
  ctx.restore();
}

function drawSlot(ctx, slot, theme) {
  ctx.setLineDash([6, 4]);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = theme.slot;
  roundRect(ctx, slot.x + 6, slot.y + 2, slot.w - 12, slot.h - 4, theme.radius);
  ctx.stroke();
  ctx.setLineDash([]);
}

/** A list or a grid: sections stacked, the whole content scrolled vertically. */
function drawStacked(ctx, scene, now, w, h, look) {
  const theme = look.theme || LIGHT;
  const scroll = valueAt(scene.scroll, now);
  const tree = isTree(scene) ? { sprites: chevronSprites, dpr: pixelRatio(), indent: indentOf(scene), guides: [] } : null;
  ctx.save();
  ctx.translate(0, -scroll);
  for (const s of scene.sections) {
    const f = s.frame;
    if (f.y + f.h < scroll || f.y > scroll + h) continue;
    drawHeader(ctx, theme, s, w);
    if (s.slot) drawSlot(ctx, s.slot, theme);
  }
  // The rows in view first, so that a tree's guides can be filled under them, joined.
  const rows = [];
  for (const c of scene.cells.values()) {
    if (c.hidden) continue;
    const f = valueAt(c.frame, now);
    if (f.y + f.h < scroll || f.y > scroll + h) continue;
    const alpha = cellOpacity(c, now) * (c.heldBy ? HELD_ALPHA : 1);
    rows.push(c, f, alpha);
    if (tree && alpha === 1) tree.guides.push(c.depth ?? 0, f.y, f.h);
  }
  if (tree) fillGuideRuns(ctx, guideRuns(tree.guides, tree.indent), theme);
  for (let k = 0; k < rows.length; k += 3) {
    const c = rows[k], f = rows[k + 1], alpha = rows[k + 2];
    ctx.globalAlpha = alpha;
    // A tree row at another opacity draws its own guides, in its opacity.
    if (tree && alpha !== 1) drawGuides(ctx, c, f, tree.indent, theme);
    drawItem(ctx, f, c, inGrid(scene, c), scene.focus === c.id, look, !!look.more?.(c), tree);
    ctx.globalAlpha = 1;
  }
  if (tree) drawInsertionLines(ctx, scene, now, theme);
  ctx.restore();
}

/** Snapshots float above the scrolled content, in viewport coordinates, with a soft shadow. */
function drawSnapshots(ctx, scene, now, look) {
  const theme = look.theme || LIGHT;
  for (const s of scene.snapshots.values()) {
    const cell = scene.cells.get(s.id);
    const c = valueAt(s.center, now);
    ctx.save();
    // Over a section that refuses it the snapshot is dimmed and wears a badge.
    ctx.globalAlpha = valueAt(s.alpha, now) * (s.forbidden ? 0.5 : 1);
    ctx.translate(c.x, c.y);
    ctx.rotate(valueAt(s.rotation, now));
    const k = valueAt(s.scale, now);
    ctx.scale(k, k);
    ctx.shadowColor = theme.shadow;
    ctx.shadowBlur = 18;
    ctx.shadowOffsetY = 6;
    const box = { x: -s.size.w / 2, y: -s.size.h / 2, w: s.size.w, h: s.size.h };
    if (s.count > 1) {
      // A multi-item drag: cards peeking out below the lifted one (a list row is as wide as the
      // view, so they step down and in, not sideways), and a badge with the count on it.
      for (let k = Math.min(s.count, 3) - 1; k >= 1; k--) {
        roundRect(ctx, box.x + 6 + 10 * k, box.y + 2 + 6 * k, box.w - 12 - 20 * k, box.h - 4, 10);
        ctx.fillStyle = k === 1 ? "#c7c7cc" : "#dcdce0";
        ctx.fill();
      }
    }
    drawItem(ctx, box, { ...cell, selected: false }, !!cell && inGrid(scene, cell), false, look, false, isTree(scene));
    if (s.subtree > 0) { ctx.shadowColor = "transparent"; drawSubtreeBadge(ctx, s, box); }
    if (s.count > 1) {
      ctx.shadowColor = "transparent";
      const r = Math.min(13, box.h / 2 - 4), bx = box.x + box.w - 20 - r, by = box.y + box.h / 2;
      ctx.beginPath();
      ctx.arc(bx, by, r, 0, Math.PI * 2);
      ctx.fillStyle = "#d93025";
      ctx.fill();
      ctx.lineWidth = 2;
      ctx.strokeStyle = "#fff";
      ctx.stroke();
      ctx.fillStyle = "#fff";
      ctx.font = "700 13px system-ui, sans-serif";
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(String(s.count), bx, by + 0.5);
      ctx.textAlign = "start";
    }
    if (s.forbidden) {
      ctx.shadowColor = "transparent";
      ctx.globalAlpha = 1;
      drawForbidden(ctx, box);
    }
    ctx.restore();
  }
}
