// Draws a scene on a canvas. The only place that applies devicePixelRatio; no layout math:
// every rectangle comes from the scene, which came from the server.
import { valueAt } from "./easing.js";
import { cellOpacity } from "./scene.js";

function roundRect(ctx, x, y, w, h, r) {
  const rr = Math.min(r, w / 2, h / 2);
  ctx.beginPath();
  ctx.moveTo(x + rr, y);
  ctx.arcTo(x + w, y, x + w, y + h, rr);
  ctx.arcTo(x + w, y + h, x, y + h, rr);
  ctx.arcTo(x, y + h, x, y, rr);
  ctx.arcTo(x, y, x + w, y, rr);
  ctx.closePath();
}

// Measuring text is the costliest part of a frame: remember each label's fitted form per width.
const fitted = new Map();
function ellipsize(ctx, text, width) {
  const key = `${Math.round(width)}|${text}`;
  let out = fitted.get(key);
  if (out === undefined) {
    out = fit(ctx, text, width);
    if (fitted.size > 5000) fitted.clear();
    fitted.set(key, out);
  }
  return out;
}

function fit(ctx, text, width) {
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0, hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(text.slice(0, mid) + "…").width <= width) lo = mid; else hi = mid - 1;
  }
  return text.slice(0, lo) + "…";
}

/** A drag handle's grip: three short bars inside the 44 px band of the cell's edge. */
function drawGrip(ctx, f, edge) {
  const x = edge === "leading" ? f.x + 14 : f.x + f.w - 30;
  ctx.fillStyle = "rgba(255,255,255,0.85)";
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

function drawCell(ctx, f, color, label, focused, selected = false, handle = null) {
  roundRect(ctx, f.x + 6, f.y + 2, f.w - 12, f.h - 4, 10);
  ctx.fillStyle = color || "#888";
  ctx.fill();
  if (selected) {
    // Selected (Ctrl/Meta or Shift click, Shift+Space): a white inner ring and a check.
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#fff";
    roundRect(ctx, f.x + 9, f.y + 5, f.w - 18, f.h - 10, 8);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(f.x + f.w - 24, f.y + f.h / 2, 9, 0, Math.PI * 2);
    ctx.fillStyle = "#fff";
    ctx.fill();
    ctx.strokeStyle = color || "#888";
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.moveTo(f.x + f.w - 28, f.y + f.h / 2);
    ctx.lineTo(f.x + f.w - 25, f.y + f.h / 2 + 3);
    ctx.lineTo(f.x + f.w - 20, f.y + f.h / 2 - 3);
    ctx.stroke();
  }
  ctx.fillStyle = "#fff";
  ctx.font = "600 16px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  const textX = handle === "leading" ? f.x + 44 : f.x + 20;
  ctx.fillText(ellipsize(ctx, label || "", f.w - 40 - (handle ? 24 : 0)), textX, f.y + f.h / 2);
  if (handle) drawGrip(ctx, f, handle);
  if (focused) {
    ctx.lineWidth = 3;
    ctx.strokeStyle = "#1a73e8";
    roundRect(ctx, f.x + 3, f.y, f.w - 6, f.h, 12);
    ctx.stroke();
  }
}

/** Draws `scene` at time `now` into `canvas` (CSS size w x h, at `dpr`). Returns ms spent. */
export function draw(canvas, scene, now, dpr) {
  const t0 = performance.now();
  const ctx = canvas.getContext("2d");
  const w = canvas.width / dpr, h = canvas.height / dpr;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = "#f5f5f7";
  ctx.fillRect(0, 0, w, h);
  if (scene.columns) drawColumns(ctx, scene, now, w, h);
  else drawStacked(ctx, scene, now, h);
  drawSnapshots(ctx, scene, now);
  return performance.now() - t0;
}

/** Columns (kanban): the board scrolled sideways; each column a card-colored lane whose header
 *  stays put and whose body is clipped and scrolled on its own. */
function drawColumns(ctx, scene, now, w, h) {
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
    ctx.fillStyle = "#e9e9ee";
    roundRect(ctx, f.x, 0, f.w, h, 12);
    ctx.fill();
    const cells = bySection.get(s.id) || [];
    ctx.fillStyle = "#3a3a3c";
    ctx.font = "700 14px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    const count = String(s.count ?? cells.length);
    ctx.fillText(ellipsize(ctx, s.title || "", f.w - 64), f.x + 14, header / 2);
    ctx.font = "600 13px system-ui, sans-serif";
    ctx.fillStyle = "#6e6e73";
    ctx.textAlign = "end";
    ctx.fillText(count, f.x + f.w - 14, header / 2);
    ctx.textAlign = "start";
    const scroll = scene.columnScroll.get(s.id);
    const sy = scroll ? valueAt(scroll, now) : 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(f.x, header, f.w, Math.max(0, h - header));
    ctx.clip();
    ctx.translate(0, -sy);
    if (s.slot) drawSlot(ctx, s.slot);
    for (const c of cells) {
      if (c.hidden) continue;
      const cf = valueAt(c.frame, now);
      if (cf.y + cf.h < sy + header || cf.y > sy + h) continue;
      ctx.globalAlpha = cellOpacity(c, now);
      drawCell(ctx, cf, c.color, c.label, scene.focus === c.id, c.selected, c.handle);
      ctx.globalAlpha = 1;
    }
    ctx.restore();
  }
  ctx.restore();
}

function drawSlot(ctx, slot) {
  ctx.setLineDash([6, 4]);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = "#b0b0b5";
  roundRect(ctx, slot.x + 6, slot.y + 2, slot.w - 12, slot.h - 4, 10);
  ctx.stroke();
  ctx.setLineDash([]);
}

/** A list or a grid: sections stacked, the whole content scrolled vertically. */
function drawStacked(ctx, scene, now, h) {
  const scroll = valueAt(scene.scroll, now);
  ctx.save();
  ctx.translate(0, -scroll);
  for (const s of scene.sections) {
    const f = s.frame;
    if (f.y + f.h < scroll || f.y > scroll + h) continue;
    ctx.fillStyle = "#6e6e73";
    ctx.font = "700 13px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    ctx.fillText((s.title || "").toUpperCase(), 16, f.y + (s.header || 32) / 2);
    if (s.slot) drawSlot(ctx, s.slot);
  }
  for (const c of scene.cells.values()) {
    if (c.hidden) continue;
    const f = valueAt(c.frame, now);
    if (f.y + f.h < scroll || f.y > scroll + h) continue;
    ctx.globalAlpha = cellOpacity(c, now);
    drawCell(ctx, f, c.color, c.label, scene.focus === c.id, c.selected, c.handle);
    ctx.globalAlpha = 1;
  }
  ctx.restore();
}

/** Snapshots float above the scrolled content, in viewport coordinates, with a soft shadow. */
function drawSnapshots(ctx, scene, now) {
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
    ctx.shadowColor = "rgba(0,0,0,0.28)";
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
    drawCell(ctx, box, cell?.color, cell?.label, false, false, cell?.handle);
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
