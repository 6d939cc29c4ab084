"""Issue 44, the page's part, in Chromium: two demo pages on one board (no tokens: "Guest N").
While page A holds a card in a mouse drag, page B hears `liftboard-presence` listing A holding
it, draws the card dimmed with A's name on a chip in A's color and a marker at A's target, and
shows A in its header's avatar stack; after A's drop B's presence lists no holds and the chip
goes. docs/screenshot-presence.png is B during A's drag. On the outline, A's marker on B's
canvas starts at A's target's depth; a group's drag wears its count on the marker's chip."""
import pathlib
import time

from conftest import make_driver
from pages import board_state, cell_center, ctrl_click, open_board, scene_cells, wait_for

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Every liftboard-presence the page's element fires, in order.
LISTEN = """
window.__presence = [];
document.getElementById('board').addEventListener('liftboard-presence', (ev) => window.__presence.push(ev.detail));
"""


def mouse(driver, kind, x, y, buttons):
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons,
        "clickCount": 0 if kind == "mouseMoved" else 1, "pointerType": "mouse"})


def press_and_drag(driver, start, end, steps=10):
    """A mouse long press at `start` (viewport px) and a drag to `end`, the button still down.
    The pointer stays still until the server's `lift` has reached the page (`st.lifts`), however
    long that takes: a move the page stamps less than `pressMs` after its `down` would pan
    instead (a busy browser can stamp the `down` late), so no wall-clock hold is assumed."""
    mouse(driver, "mouseMoved", *start, 0)
    mouse(driver, "mousePressed", *start, 1)
    wait_for(lambda: board_state(driver, "st.lifts.size") == 1, what="the server's lift of the long press (the pointer held still)")
    for k in range(1, steps + 1):
        mouse(driver, "mouseMoved", start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps, 1)
        time.sleep(0.03)
    wait_for(lambda: board_state(driver, "st.lifts.size") == 1, what="the lift, still held after the drag's moves")


def last_presence(driver):
    return driver.execute_script("return window.__presence.length ? window.__presence[window.__presence.length - 1] : null")


def canvas_pixel(driver, x, y):
    """The canvas's RGBA at CSS point (x, y) of the element (the test's pixel ratio is 1)."""
    return driver.execute_script("""
        const c = document.getElementById('board').shadowRoot.querySelector('canvas');
        return [...c.getContext('2d').getImageData(Math.round(arguments[0]), Math.round(arguments[1]), 1, 1).data];""", x, y)


MILK = "#f4b400"  # the demo's milk card's accent


def stripe(driver):
    """The canvas's color on milk's accent stripe (its leading edge, halfway down), where it is now."""
    f = board_state(driver, "st.scene.cells.get('milk').frame.to")
    scroll = board_state(driver, "st.scene.scroll.to")
    return canvas_pixel(driver, f["x"] + 8, f["y"] + f["h"] / 2 - scroll)[:3]


def hex_rgb(color):
    return [int(color[i:i + 2], 16) for i in (1, 3, 5)]


def test_a_card_held_on_one_page_is_drawn_held_on_the_other_with_the_holders_chip_and_marker(live_server, browser):
    a, b = browser, make_driver()
    try:
        open_board(b, live_server)
        b.execute_script(LISTEN)
        open_board(a, live_server)
        a.execute_script(LISTEN)
        a_session = board_state(a, "st.session")
        # B hears A join: A is listed, holding nothing.
        wait_for(lambda: any(p["session"] == a_session for p in (last_presence(b) or {}).get("people", [])),
                 what="B never heard A join")
        ana = next(p for p in last_presence(b)["people"] if p["session"] == a_session)
        assert ana["name"].startswith("Guest ") and ana["holds"] == []

        # A long-presses milk and drags it onto mum's place, and holds it there.
        x, y = cell_center(a, "milk")
        _, mum_y = cell_center(a, "mum")
        press_and_drag(a, (x, y), (x, mum_y + 20))

        def b_sees_the_hold():
            p = last_presence(b)
            holder = next((q for q in (p or {}).get("people", []) if q["session"] == a_session), None)
            return holder if holder and holder["holds"] == ["milk"] and holder.get("target") else None
        holder = wait_for(b_sees_the_hold, what="B's presence never listed A holding milk with a target")
        assert holder["color"] == ana["color"] and holder["name"] == ana["name"]
        assert holder["target"]["section"] == "todo"
        wait_for(lambda: board_state(b, "st.scene.cells.get('milk').heldBy") == ana["name"],
                 what="B's milk cell never got heldBy")

        def drawn():
            d = board_state(b, "st.scene.presenceDrawn")
            return d if d and d[0]["marker"] and d[0]["chip"] else None
        [mark] = wait_for(drawn, what="B's canvas never drew the chip and the marker")
        assert (mark["id"], mark["name"], mark["color"]) == ("milk", ana["name"], ana["color"])
        # The marker is at A's target: above mum's row or below it, within the To do section.
        assert mark["marker"]["w"] > 100, mark
        # The pixels: the chip's padding and the marker's bar are A's color on B's canvas.
        chip = mark["chip"]
        assert canvas_pixel(b, chip["x"] + 5, chip["y"] + chip["h"] / 2)[:3] == hex_rgb(ana["color"])
        bar = mark["marker"]
        assert canvas_pixel(b, bar["x"] + bar["w"] - 4, bar["y"] + bar["h"] / 2)[:3] == hex_rgb(ana["color"])
        # The held card is drawn dimmed in its place: its accent stripe paler than after the drop.
        held_stripe = stripe(b)
        # A does not see its own hold as someone else's.
        assert board_state(a, "st.scene.cells.get('milk').heldBy") is None
        assert not board_state(a, "st.scene.presenceDrawn || []")
        # B's header: A's initials on A's color.
        avatars = b.execute_script("""return [...document.querySelectorAll('#people .avatar')].map(
            (e) => [e.textContent, getComputedStyle(e).backgroundColor, e.title]);""")
        want = "rgb({}, {}, {})".format(*hex_rgb(ana["color"]))
        initials = "G" + ana["name"].split()[1][0]
        assert [initials, want, ana["name"] + " (moving a card)"] in avatars, avatars
        b.save_screenshot(str(ROOT / "docs" / "screenshot-presence.png"))

        mouse(a, "mouseReleased", x, mum_y + 20, 0)
        wait_for(lambda: all(not p["holds"] for p in last_presence(b)["people"]), what="B still lists a hold after A's drop")
        wait_for(lambda: board_state(b, "st.scene.cells.get('milk').heldBy") is None, what="B's milk stays held")
        wait_for(lambda: board_state(b, "st.scene.presenceDrawn.length") == 0, what="B still draws a chip")
        wait_for(lambda: stripe(b) == hex_rgb(MILK), what="milk's stripe in its own color after the drop")
        assert held_stripe != hex_rgb(MILK) and min(held_stripe) > min(hex_rgb(MILK)), held_stripe
    finally:
        b.quit()


def open_outline(driver, server):
    driver.get(server.http + "/?board=outline&debug=1")
    wait_for(lambda: (scene_cells(driver) or {}).get("garden"), what="the outline's rows")


def two_pages(live_server, browser, opener):
    """Page B (listening for presence) and page A on one board, A's session id."""
    a, b = browser, make_driver()
    opener(b, live_server)
    b.execute_script(LISTEN)
    opener(a, live_server)
    return a, b, board_state(a, "st.session")


def a_as_b_hears_it(b, a_session, want, what):
    """A's entry in B's latest presence, once `want(entry)` holds."""
    def heard():
        holder = next((q for q in (last_presence(b) or {}).get("people", []) if q["session"] == a_session), None)
        return holder if holder and want(holder) else None
    return wait_for(heard, what=what)


def the_mark(driver, what):
    """B's one drawn hold that has a marker, once its canvas has drawn one."""
    def marked():
        return next((d for d in board_state(driver, "st.scene.presenceDrawn") or [] if d["marker"]), None)
    return wait_for(marked, what=what)


def test_on_a_tree_the_holders_marker_is_drawn_at_the_targets_depth(live_server, browser):
    a, b, a_session = two_pages(live_server, browser, open_outline)
    try:
        indent = board_state(b, "st.scene.tree.indent")
        # A lifts garden (collapsed, three children) up between milk and eggs and 54 px to the
        # right: two levels in, under milk (test_tree.py's drag), and holds it there.
        rows = scene_cells(a)
        x0, y0 = a.execute_script("const r = document.querySelector('#board').getBoundingClientRect(); return [r.left, r.top];")
        scroll = board_state(a, "st.scene.scroll.to")
        garden, milk, eggs = (rows[k]["frame"] for k in ("garden", "milk", "eggs"))
        start = (x0 + garden["x"] + 120, y0 + garden["y"] + garden["h"] / 2 - scroll)
        end = (start[0] + 54, y0 + (milk["y"] + milk["h"] + eggs["y"]) / 2 + 6 - scroll)
        press_and_drag(a, start, end, steps=16)

        holder = a_as_b_hears_it(b, a_session, lambda h: (h.get("target") or {}).get("depth") == 2,
                                 "B's presence never gave A's target at depth 2")
        assert holder["holds"][0] == "garden", holder
        mark = the_mark(b, "B's canvas never drew A's marker")
        bar = mark["marker"]
        # The bar starts where A's own insertion line does: two indents and 6 px in from a
        # top-level row's edge (a list's marker would start 6 px in).
        left = scene_cells(b)["groceries"]["frame"]["x"]
        assert bar["x"] == left + 2 * indent + 6, (bar, indent)
        # A subtree is one item: the chip is the name alone.
        assert bar["label"] == holder["name"], bar
        # The pixels: the bar's starting dot is A's color; 10 px to its left, where an unindented
        # marker would be drawn, it is not.
        y = bar["y"] + bar["h"] / 2
        assert canvas_pixel(b, bar["x"], y)[:3] == hex_rgb(holder["color"])
        assert canvas_pixel(b, bar["x"] - 10, y)[:3] != hex_rgb(holder["color"])
        assert canvas_pixel(b, bar["x"] + bar["w"] - 4, y)[:3] == hex_rgb(holder["color"])
        mouse(a, "mouseReleased", *end, 0)
        wait_for(lambda: board_state(b, "st.scene.presenceDrawn.length") == 0, what="B still draws A's marker after the drop")
    finally:
        b.quit()


def test_a_groups_drag_wears_its_count_on_the_markers_chip(live_server, browser):
    a, b, a_session = two_pages(live_server, browser, open_board)
    try:
        for item in ("milk", "plants", "book"):
            ctrl_click(a, cell_center(a, item))
        wait_for(lambda: board_state(a, "['milk', 'plants', 'book'].every((id) => st.scene.cells.get(id).selected)"),
                 what="A's three cards never showed selected")
        px, py = cell_center(a, "plants")
        _, mum_y = cell_center(a, "mum")
        press_and_drag(a, (px, py), (px, mum_y))

        holder = a_as_b_hears_it(b, a_session, lambda h: len(h["holds"]) == 3 and h.get("target"),
                                 "B's presence never listed A holding the three cards")
        assert sorted(holder["holds"]) == ["book", "milk", "plants"], holder
        mark = the_mark(b, "B's canvas never drew A's marker")
        assert mark["marker"]["label"] == holder["name"] + " · 3", mark
        # Every held card wears A's chip; one marker for the drag.
        drawn = board_state(b, "st.scene.presenceDrawn")
        assert sorted(d["id"] for d in drawn) == ["book", "milk", "plants"]
        assert sum(1 for d in drawn if d["marker"]) == 1, drawn
        # The pixels: the marker's chip is A's color, and wider than a chip of the name alone.
        chip = mark["marker"]["chip"]
        assert canvas_pixel(b, chip["x"] + 5, chip["y"] + chip["h"] / 2)[:3] == hex_rgb(holder["color"])
        name_chip = next(d["chip"] for d in drawn if d["chip"])
        assert chip["w"] > name_chip["w"] + 10, (chip, name_chip)
        assert canvas_pixel(b, chip["x"] + chip["w"] - 5, chip["y"] + chip["h"] / 2)[:3] == hex_rgb(holder["color"])
        mouse(a, "mouseReleased", px, mum_y, 0)
        wait_for(lambda: board_state(b, "st.scene.presenceDrawn.length") == 0, what="B still draws A's chips after the drop")
    finally:
        b.quit()
