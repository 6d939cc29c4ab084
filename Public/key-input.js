// The keyboard's input: keys forwarded as `key` messages (the server moves the focus and the
// keyboard's drag), Tab into the board starting keyboard reordering, Ctrl-Z (Cmd-Z) undoing,
// and the context menu key or Shift+F10 opening "Move to…" for the focused card.
import { FORWARDED_KEYS, modifiers } from "./client.js";
import { contentToView } from "./scene.js";
import { valueAt } from "./easing.js";

/**
 * Listens on `canvas`. `hooks`: `state()`, `send(msg)`, `undo()`, `openMenu(id, at)`, and
 * `mayStartOnFocus()`: whether a focus now is a Tab into the board (not a pointer's, not the
 * menu's giving it back, not focusItem's).
 */
export function listenKeys(canvas, hooks) {
  canvas.addEventListener("keydown", (ev) => {
    const state = hooks.state();
    if (ev.key === "ContextMenu" || (ev.key === "F10" && ev.shiftKey)) {
      const id = state.scene.focus;
      if (id !== null && id !== undefined) {
        const c = state.scene.cells.get(id);
        const f = c ? valueAt(c.frame, performance.now()) : { x: 0, y: 0, w: 0, h: 0 };
        hooks.openMenu(id, contentToView(state.scene, c?.section, f.x + 24, f.y + f.h / 2, performance.now()));
      }
      ev.preventDefault();
      return;
    }
    // Undo: Ctrl-Z (Cmd-Z on a Mac) reverts this element's last drop.
    if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && !ev.altKey && ev.key.toLowerCase() === "z") {
      hooks.undo();
      ev.preventDefault();
      return;
    }
    if (ev.key === "Tab" && !state.keyboardStarted) { state.keyboardStarted = true; hooks.send({ t: "key", key: "Tab" }); return; }
    if (!FORWARDED_KEYS.has(ev.key)) return;
    state.keyboardStarted = true;
    const key = { t: "key", key: ev.key };
    const mods = modifiers(ev);
    if (mods) key.mods = mods;
    hooks.send(key);
    ev.preventDefault();
  });
  canvas.addEventListener("focus", () => {
    // Tabbing in (not a pointer) starts keyboard reordering: the server focuses the first item.
    const state = hooks.state();
    if (!state.keyboardStarted && state.open && hooks.mayStartOnFocus()) {
      state.keyboardStarted = true;
      hooks.send({ t: "key", key: "Tab" });
    }
  });
}
