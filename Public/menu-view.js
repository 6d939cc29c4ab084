// "Move to…" on screen: the menu's buttons for a card (menu.js says which), placed in the
// element's box, driven by the keys a menu has; a chosen entry is sent as a `moveTo`.
import { menuEntries } from "./menu.js";

export class MoveToMenu {
  #menu; #canvas; #hooks;
  /** True while the menu gives the focus back to the canvas (that focus is no Tab into it). */
  refocusing = false;

  /** `menu`: the element's menu node; `hooks`: `scene()` and `send(msg)`. */
  constructor(menu, canvas, hooks) {
    this.#menu = menu;
    this.#canvas = canvas;
    this.#hooks = hooks;
    menu.addEventListener("keydown", (ev) => this.#key(ev));
    // A press on an entry keeps the focus where it is (WebKit does not focus a pressed button:
    // the focus would leave the menu and close it before the click).
    menu.addEventListener("mousedown", (ev) => ev.preventDefault());
    menu.addEventListener("focusout", (ev) => {
      if (!menu.contains(ev.relatedTarget)) this.close(false);
    });
  }

  /** Opens the menu for card `id` at viewport point `at`, focused on its first entry. */
  open(id, at) {
    const scene = this.#hooks.scene(), menu = this.#menu;
    const entries = menuEntries(scene, id);
    if (entries.length === 0) return;
    const cell = scene.cells.get(id);
    menu.replaceChildren();
    menu.setAttribute("aria-label", `Move ${cell.label || id} to…`);
    entries.forEach((e, k) => {
      if (k === 4) { const hr = document.createElement("hr"); hr.setAttribute("role", "separator"); menu.append(hr); }
      const b = document.createElement("button");
      b.setAttribute("role", "menuitem");
      b.tabIndex = -1;
      b.textContent = e.label;
      b.dataset.section = e.section;
      b.dataset.place = e.place;
      b.addEventListener("click", () => {
        this.#hooks.send({ t: "moveTo", id, section: e.section, place: e.place });
        this.close(true);
      });
      menu.append(b);
    });
    menu.hidden = false;
    const w = this.#canvas.clientWidth, h = this.#canvas.clientHeight;
    const mw = menu.offsetWidth, mh = menu.offsetHeight;
    menu.style.left = `${Math.max(4, Math.min(at.x, w - mw - 4))}px`;
    menu.style.top = `${Math.max(4, Math.min(at.y, h - mh - 4))}px`;
    menu.querySelector("button").focus();
  }

  /** Closes the menu; `refocus`: the focus goes back to the canvas. */
  close(refocus) {
    if (this.#menu.hidden) return;
    this.#menu.hidden = true;
    this.#menu.replaceChildren();
    if (refocus) {
      // Back from the menu, not tabbed in: this focus starts no keyboard reordering.
      this.refocusing = true;
      this.#canvas.focus({ preventScroll: true });
      this.refocusing = false;
    }
  }

  /** The menu's keys, as a menu's are: arrows move, Home and End jump, Escape and Tab close. */
  #key(ev) {
    const items = [...this.#menu.querySelectorAll("button")];
    const k = items.indexOf(this.#menu.getRootNode().activeElement);
    let next = null;
    if (ev.key === "ArrowDown") next = (k + 1) % items.length;
    else if (ev.key === "ArrowUp") next = (k - 1 + items.length) % items.length;
    else if (ev.key === "Home") next = 0;
    else if (ev.key === "End") next = items.length - 1;
    else if (ev.key === "Escape" || ev.key === "Tab") { this.close(true); ev.preventDefault(); return; }
    else return;
    items[next].focus();
    ev.preventDefault();
  }
}
