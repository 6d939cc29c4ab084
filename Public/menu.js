// "Move to…": what the menu offers for a card, and which card a point is on. Pure: no DOM.
// The element opens the menu (secondary button, the ContextMenu key, Shift+F10) and sends
// the chosen entry as a `moveTo` message; the server commits it as the drop there would.
import { cellUnder, contentToView, inGrid } from "./scene.js";
import { valueAt } from "./easing.js";
import { isRich, moreButton } from "./card.js";
import { isTree } from "./tree-view.js";

/** The menu's entries for card `id`: one place up or down, the top or bottom of its section,
 *  on a tree board Indent and Outdent (docs/protocol.md, Trees), then the end of every other section. Empty for a card the scene does not have or a pinned one. */
export function menuEntries(scene, id) {
  const cell = scene.cells.get(id);
  if (!cell || !cell.movable) return [];
  const own = cell.section;
  const out = [
    { label: "Up one", section: own, place: "up" },
    { label: "Down one", section: own, place: "down" },
    { label: "To the top", section: own, place: "first" },
    { label: "To the bottom", section: own, place: "last" },
  ];
  if (isTree(scene)) {
    out.push({ label: "Indent", section: own, place: "indent" }, { label: "Outdent", section: own, place: "outdent" });
  }
  for (const s of scene.sections) {
    if (s.id !== own) out.push({ label: `Move to ${s.title || s.id}`, section: s.id, place: "last" });
  }
  return out;
}

/** The id of the shown card under viewport point (x, y) at `now`, or null. */
export function cellAt(scene, x, y, now) {
  return cellUnder(scene, x, y, now)?.id ?? null;
}

/** The card whose "⋯" button (a finger's way to the menu) is under viewport point `at` at
 *  `now`, among the cells `wears(cell)` says wear one: `{id, button: {x, y, r}}`, or null. */
export function moreButtonAt(scene, at, now, wears) {
  for (const c of scene.cells.values()) {
    if (c.hidden || !wears(c)) continue;
    const f = valueAt(c.frame, now);
    // Where the button is drawn: the board's scroll, or in columns the board's sideways one
    // and the card's column's own; under a column's header it is clipped away.
    const v = contentToView(scene, c.section, f.x, f.y, now);
    const b = moreButton({ ...f, x: v.x, y: v.y }, inGrid(scene, c) && isRich(c), !!c.selected);
    if (scene.columns && at.y < (scene.sections.find((s) => s.id === c.section)?.header ?? 0)) continue;
    if (Math.hypot(at.x - b.x, at.y - b.y) > b.r + 8) continue;
    return { id: c.id, button: b };
  }
  return null;
}
