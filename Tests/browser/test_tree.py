"""Trees in the page (issue 43; docs/protocol.md, "Trees (ours)"): on the built-in outline
(`/?board=outline`), a person drags a row under another with the mouse and indents it by
moving sideways, the tree read back from `GET /api/boards/outline`; a click on a chevron
collapses a row's subtree and another expands it; the keyboard lifts a row and indents it with
the right arrow. In Chromium and WebKitGTK."""
import pytest
from selenium.webdriver.common.keys import Keys

from pages import board_state, canvas_origin, keys, long_press_drag, pointer, scene_cells, wait_for

BOTH = pytest.mark.engines("chromium", "webkit")


def open_outline(browser, server):
    browser.get(server.http + "/?board=outline&debug=1")
    wait_for(lambda: (scene_cells(browser) or {}).get("bike"), what="the outline's rows")
    assert board_state(browser, "st.scene.layout") == "tree"


def tree(server, section="home"):
    """The section's forest as the API says it: each item's parent, from the committed order."""
    order = next(s for s in server.board("outline")["order"] if s["section"] == section)
    return dict(zip(order["items"], order["parents"]))


def row(browser, item):
    """Where the page draws `item`'s row (viewport px): its frame as drawn, scrolled."""
    f = scene_cells(browser)[item]["frame"]
    scroll = board_state(browser, "st.scene.scroll.to")
    x0, y0 = canvas_origin(browser)
    return {"x": x0 + f["x"], "y": y0 + f["y"] - scroll, "w": f["w"], "h": f["h"]}


def fact(browser, item, key):
    return board_state(browser, "st.scene.cells.get(%r)?.%s" % (item, key))


@BOTH
def test_a_row_dragged_under_another_and_indented_by_sideways_travel(live_server, browser):
    open_outline(browser, live_server)
    assert tree(live_server)["garden"] is None
    garden, milk, eggs = row(browser, "garden"), row(browser, "milk"), row(browser, "eggs")
    # Garden (collapsed, three children) up between milk and eggs, and 54 px to the right:
    # round(54 / 24) = 2 levels, under milk (the row above is at depth 1: 2 is the deepest).
    start = (garden["x"] + 120, garden["y"] + garden["h"] / 2)
    end = (start[0] + 54, (milk["y"] + milk["h"] + eggs["y"]) / 2 + 6)
    long_press_drag(browser, start, end, kind="mouse", steps=16)
    wait_for(lambda: live_server.board("outline")["version"] == 1, what="the drop's commit")
    parents = tree(live_server)
    assert parents["garden"] == "milk", parents
    # Its subtree came with it, still its children.
    assert [parents[c] for c in ("seeds", "shed", "hedge")] == ["garden"] * 3
    order = next(s["items"] for s in live_server.board("outline")["order"] if s["section"] == "home")
    assert order[:7] == ["groceries", "milk", "garden", "seeds", "shed", "hedge", "eggs"], order
    # The page draws it two levels in once the snapshot has landed, still collapsed.
    wait_for(lambda: fact(browser, "garden", "depth") == 2 and not scene_cells(browser)["garden"]["hidden"])
    assert scene_cells(browser)["garden"]["frame"]["x"] == 48 and fact(browser, "garden", "collapsed") is True


@BOTH
def test_a_click_on_the_chevron_collapses_and_another_expands(live_server, browser):
    open_outline(browser, live_server)
    groceries = row(browser, "groceries")
    chevron = (groceries["x"] + 14, groceries["y"] + groceries["h"] / 2)
    assert fact(browser, "groceries", "hasChildren") is True and fact(browser, "groceries", "collapsed") is False
    pointer(browser, "mouse", [("move", *chevron), ("down",), ("up",)])
    wait_for(lambda: fact(browser, "groceries", "collapsed") is True, what="groceries collapsed")
    # Its rows leave; the rows below slide up to take their place.
    wait_for(lambda: "milk" not in scene_cells(browser) and "apples" not in scene_cells(browser), what="milk's row gone")
    below = row(browser, "garden")["y"]
    assert below < groceries["y"] + 2 * groceries["h"] + 8
    pointer(browser, "mouse", [("move", *chevron), ("down",), ("up",)])
    wait_for(lambda: fact(browser, "groceries", "collapsed") is False and "milk" in scene_cells(browser), what="groceries expanded")
    # Only this session's view changed: nothing was committed.
    assert live_server.board("outline")["version"] == 0


@BOTH
def test_the_keyboard_lifts_a_row_and_indents_it(live_server, browser):
    open_outline(browser, live_server)
    browser.execute_script("document.querySelector('#board').focusItem('phone')")
    wait_for(lambda: board_state(browser, "st.scene.focus") == "phone", what="the focus on phone")
    # Phone follows water (both under bills): Space lifts it, Right indents it under water.
    keys(browser, Keys.SPACE)
    wait_for(lambda: board_state(browser, "st.lifts.has(-1)") or board_state(browser, "st.scene.snapshots.size") > 0,
             what="the keyboard's lift")
    keys(browser, Keys.ARROW_RIGHT)
    wait_for(lambda: any("level 3" in a for a in board_state(browser, "st.announcements")), what="an announcement of level 3")
    keys(browser, Keys.SPACE)
    wait_for(lambda: live_server.board("outline")["version"] == 1, what="the keyboard drop's commit")
    assert tree(live_server)["phone"] == "water"
