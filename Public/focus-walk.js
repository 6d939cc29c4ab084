// focusItem(id): the keyboard focus walks to an item one arrow key per server answer, as a
// keyboard user's would. Pure: which key to send next, from the scene the server drew.
import { layoutOf } from "./scene.js";

/** A walk to item `id`: `steps` keys sent so far, `last` the focus the last one was sent from. */
export function focusWalk(id) {
  return { id, steps: 0, last: undefined };
}

/**
 * The walk's next step, given the scene's focus, the committed `order` (section id -> ids), and
 * whether the keyboard has started and a keyboard drag is in flight: `{done: true}` (the focus
 * is on the item), `{done: false}` (it cannot be reached), `null` (the answer to the last key is
 * not in yet), or `{key}` to send ("Tab" first, then arrows). Counts the step in `walk`.
 * In a list Down and Up go through the order; in a grid Right and Left; in columns Left and
 * Right go to the next column, Up and Down within one.
 */
export function focusStep(walk, scene, order, keyboardStarted, keyboardDrag) {
  const focus = scene.focus;
  if (focus === walk.id) return { done: true };
  if (focus === walk.last && walk.steps > 0) return null;
  const ids = Object.values(order).flat();
  const to = ids.indexOf(walk.id);
  // Arrow keys would move a keyboard drag's item, not the focus.
  if (to < 0 || walk.steps > ids.length + 1 || keyboardDrag) return { done: false };
  walk.steps++;
  walk.last = focus;
  if (!keyboardStarted || focus === null) return { key: "Tab" };
  const forward = ids.indexOf(focus) < to;
  const section = (id) => Object.keys(order).findIndex((s) => order[s].includes(id));
  const layout = layoutOf(scene, scene.cells.get(focus)?.section);
  if (layout === "columns") {
    const from = section(focus), into = section(walk.id);
    return { key: from === into ? (forward ? "ArrowDown" : "ArrowUp") : (from < into ? "ArrowRight" : "ArrowLeft") };
  }
  const grid = layout === "grid";
  return { key: forward ? (grid ? "ArrowRight" : "ArrowDown") : (grid ? "ArrowLeft" : "ArrowUp") };
}
