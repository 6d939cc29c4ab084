import { test } from "node:test";
import assert from "node:assert/strict";
import { DARK, LIGHT, cardLayout, ellipsize, isRich, resolveTheme, textOn, wrapLines } from "../../Public/card.js";
import { applyMessage, createScene } from "../../Public/scene.js";

// A monospace measure: every character 7 px wide, whatever the font.
const mono = (text) => text.length * 7;
const measure = (_font, text) => mono(text);

test("a text that fits is kept whole, one that does not is cut with an ellipsis within the width", () => {
  assert.equal(ellipsize(mono, "Buy milk", 56), "Buy milk");
  const cut = ellipsize(mono, "Return the library book", 70);
  assert.equal(cut, "Return th…");  // ten characters: 70 px
  assert.ok(mono(cut) <= 70);
  assert.equal(ellipsize(mono, "", 70), "");
  assert.equal(ellipsize(mono, "anything", 3), "", "not even the ellipsis fits");
});

test("an ellipsis never follows a space", () => {
  assert.equal(ellipsize(mono, "ab cdefgh", 28), "ab…");
});

test("detail wraps at spaces to at most two lines, the second ellipsized", () => {
  const lines = wrapLines(mono, "Ask about the weekend and wish her luck with the new shed", 140, 2);
  assert.deepEqual(lines, ["Ask about the", "weekend and wish he…"]);  // twenty characters a line
  for (const l of lines) assert.ok(mono(l) <= 140, l);
});

test("a short detail takes one line, and a word wider than a line is broken where it must", () => {
  assert.deepEqual(wrapLines(mono, "Two weeks", 140, 2), ["Two weeks"]);
  assert.deepEqual(wrapLines(mono, "Supercalifragilistic expialidocious", 70, 2), ["Supercalif", "ragilisti…"]);
  assert.deepEqual(wrapLines(mono, "", 70, 2), []);
});

test("one line allowed: the whole detail ellipsized on it", () => {
  assert.deepEqual(wrapLines(mono, "The fern likes it damp", 70, 1), ["The fern…"]);
});

const rich = {
  id: "a", label: "Call mum", detail: "Ask about the weekend and wish her luck with the new shed", image: "/media/mum.svg",
  badge: "2", tags: [{ text: "family", color: "#4285f4" }, { text: "home" }], accent: "#ff00ff",
};

test("a list row: the stripe along the leading edge, the thumbnail leading, text after it, the badge at the right end", () => {
  const f = { x: 0, y: 100, w: 400, h: 96 };
  const L = cardLayout(rich, f, { measure });
  assert.deepEqual(L.card, { x: 6, y: 102, w: 388, h: 92 });
  assert.deepEqual(L.stripe, { x: 6, y: 102, w: 4, h: 92 });
  assert.equal(L.thumb.w, 64);
  assert.equal(L.thumb.h, 64);
  assert.equal(L.thumb.x, 20);
  assert.equal(L.thumb.y, 102 + 14);  // centred in the card
  assert.ok(L.title.x >= L.thumb.x + L.thumb.w + 12);
  assert.ok(L.badge.x + L.badge.w <= L.card.x + L.card.w - 12);
  assert.equal(L.badge.y + L.badge.h / 2, L.card.y + L.card.h / 2);
  // Title, two lines of detail and the tags all fit in 92 px, none wider than the room left of the badge.
  assert.equal(L.detail.length, 2);
  assert.equal(L.tags.length, 2);
  for (const d of L.detail) assert.ok(d.x + mono(d.text) <= L.badge.x, d.text);
  assert.ok(L.tags[0].y > L.detail[1].y);
  assert.equal(L.tags[0].color, "#4285f4");
  assert.equal(L.tags[1].color, "");
});

test("every part of a list row stays inside its card, whatever the row's height", () => {
  for (const h of [30, 44, 56, 76, 96, 200]) {
    const L = cardLayout(rich, { x: 0, y: 0, w: 360, h }, { measure });
    const c = L.card;
    const inside = (r) => r.x >= c.x && r.y >= c.y && r.x + r.w <= c.x + c.w && r.y + r.h <= c.y + c.h;
    assert.ok(inside(L.thumb), `thumb in ${h}`);
    assert.ok(inside(L.badge), `badge in ${h}`);
    for (const t of L.tags) assert.ok(inside(t), `tag in ${h}`);
    const lines = 1 + L.detail.length;
    assert.ok(L.title.y - 10 >= c.y && L.title.y - 10 + lines * 17 + (L.tags.length ? 22 : 0) <= c.y + c.h + 4, `text in ${h}`);
  }
});

test("what a short row fits: the title and one line of detail in 56, tags join at 76, a second line of detail at 96", () => {
  const at = (h) => cardLayout(rich, { x: 0, y: 0, w: 400, h }, { measure });
  assert.deepEqual([at(56).detail.length, at(56).tags.length], [1, 0]);
  assert.deepEqual([at(76).detail.length, at(76).tags.length], [1, 2]);
  assert.deepEqual([at(96).detail.length, at(96).tags.length], [2, 2]);
  assert.deepEqual([at(30).detail.length, at(30).tags.length], [0, 0]);
});

test("a grid cell: the image fills the top half, the badge sits on it, the tags along the bottom", () => {
  const f = { x: 168, y: 40, w: 160, h: 170 };
  const L = cardLayout(rich, f, { grid: true, measure });
  assert.deepEqual(L.thumb, { x: 174, y: 42, w: 148, h: 83, r: 0 });
  assert.ok(L.title.y > L.thumb.y + L.thumb.h);
  assert.equal(L.badge.y, 42 + 8);
  assert.equal(L.badge.x + L.badge.w, 174 + 148 - 8);
  assert.equal(L.tags[0].y + L.tags[0].h, 42 + 166 - 6);
  for (const t of L.tags) assert.ok(t.x + t.w <= 174 + 148 - 12);
});

test("tags: at most five, and only those that fit the width", () => {
  const many = { ...rich, image: null, badge: null, tags: Array.from({ length: 7 }, (_, k) => ({ text: `tag${k}` })) };
  assert.equal(cardLayout(many, { x: 0, y: 0, w: 900, h: 96 }, { measure }).tags.length, 5);
  const narrow = cardLayout(many, { x: 0, y: 0, w: 200, h: 96 }, { measure });
  assert.ok(narrow.tags.length < 5);
  for (const t of narrow.tags) assert.ok(t.x + t.w <= 200 - 6 - 12);
});

test("a card without an image or badge starts its text at the card's padding and uses the whole width", () => {
  const L = cardLayout({ label: "Pinned", detail: "Read me", accent: "#999" }, { x: 0, y: 0, w: 400, h: 56 }, { measure });
  assert.equal(L.thumb, null);
  assert.equal(L.badge, null);
  assert.equal(L.title.x, 6 + 14);
});

test("room kept at the trailing end (a selection check, the ⋯ button) narrows the text and moves the badge", () => {
  const a = cardLayout(rich, { x: 0, y: 0, w: 400, h: 96 }, { measure });
  const b = cardLayout(rich, { x: 0, y: 0, w: 400, h: 96 }, { measure, trailing: 34 });
  assert.equal(b.badge.x, a.badge.x - 34);
});

test("a cell draws as a card when it has any rich field", () => {
  assert.equal(isRich({ label: "x", color: "#f00" }), false);
  assert.equal(isRich({ label: "x", tags: [] }), false);
  for (const k of ["detail", "image", "badge", "accent"]) assert.equal(isRich({ [k]: "v" }), true, k);
  assert.equal(isRich({ tags: [{ text: "t" }] }), true);
});

test("themes: light or dark, a host's custom properties on top, forced colors winning over the host's colors", () => {
  assert.equal(resolveTheme().card, LIGHT.card);
  assert.equal(resolveTheme({ dark: true }).background, DARK.background);
  const props = { "--liftboard-card": " #123456 ", "--liftboard-radius": "4px", "--liftboard-font": "Georgia, serif" };
  const host = resolveTheme({ dark: true, prop: (n) => props[n] || "" });
  assert.deepEqual([host.card, host.radius, host.font, host.text], ["#123456", 4, "Georgia, serif", DARK.text]);
  const system = { Canvas: "rgb(0, 0, 0)", CanvasText: "rgb(255, 255, 0)", Highlight: "rgb(0, 255, 255)",
    HighlightText: "rgb(0, 0, 0)", GrayText: "rgb(128, 128, 128)" };
  const forced = resolveTheme({ forced: true, system, prop: (n) => props[n] || "" });
  assert.deepEqual([forced.card, forced.text, forced.badge, forced.radius], ["rgb(0, 0, 0)", "rgb(255, 255, 0)", "rgb(0, 255, 255)", 4]);
  assert.equal(resolveTheme({ prop: (n) => (n === "--liftboard-radius" ? "-3" : "") }).radius, LIGHT.radius);
});

test("chip text is dark on a light color and white on a dark one", () => {
  assert.equal(textOn("#f4b400"), "#1d1d1f");
  assert.equal(textOn("#fff"), "#1d1d1f");
  assert.equal(textOn("#1a237e"), "#ffffff");
  assert.equal(textOn("tomato"), "#ffffff");
});

test("the scene keeps a cell's card fields from layout and from a whole frame cell, and drops them when they go", () => {
  const scene = createScene();
  applyMessage(scene, {
    t: "layout", version: 0, content: { w: 400, h: 200 }, scroll: { x: 0, y: 0 },
    sections: [{ id: "s", title: "S", subtitle: "sub", count: 1, frame: { x: 0, y: 0, w: 400, h: 88 }, header: 32 }],
    cells: [{ id: "a", label: "A", color: "#f00", section: "s", index: 0, movable: true, frame: { x: 0, y: 32, w: 400, h: 56 },
      detail: "d", image: "/media/a.svg", badge: "3", tags: [{ text: "t", color: "#0f0" }], accent: "#00f" }],
  }, 0);
  const a = scene.cells.get("a");
  assert.deepEqual([a.detail, a.image, a.badge, a.tags, a.accent], ["d", "/media/a.svg", "3", [{ text: "t", color: "#0f0" }], "#00f"]);
  assert.equal(scene.sections[0].subtitle, "sub");
  applyMessage(scene, { t: "frame", seq: 1, ms: 1, cells: [{ id: "a", frame: { x: 0, y: 32, w: 400, h: 56 }, alpha: 1, hidden: false,
    dur: 0, ease: "linear", label: "A2", color: "#f00", section: "s", index: 0, movable: true, badge: "4" }] }, 1);
  assert.deepEqual([a.label, a.detail, a.badge, a.tags], ["A2", null, "4", null]);
  // A frame entry without `label` is a move: the card's fields stay.
  applyMessage(scene, { t: "frame", seq: 2, ms: 2, cells: [{ id: "a", frame: { x: 0, y: 40, w: 400, h: 56 }, alpha: 1, hidden: false,
    dur: 0, ease: "linear" }] }, 2);
  assert.equal(a.badge, "4");
});

test("a short detail in a tall row takes one line, and the block is centred on what is drawn", () => {
  const cell = { label: "Milk", detail: "Two litres", tags: [{ text: "shop" }] };
  const L = cardLayout(cell, { x: 0, y: 0, w: 400, h: 96 }, { measure });
  assert.equal(L.detail.length, 1);
  const top = L.title.y - 10, bottom = L.tags[0].y + L.tags[0].h;
  const card = L.card;
  assert.ok(Math.abs((top - card.y) - (card.y + card.h - bottom)) <= 4, `${top} ${bottom}`);
});
