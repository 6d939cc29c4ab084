"""Kanban columns in the page (issue 24): the built-in `/?board=kanban` draws four columns side by
side; a card dragged from one column into another with a mouse or a finger commits there, read
back from `GET /api/boards/kanban`; a sideways pan scrolls the board and no column, a vertical one
its column alone; the wheel scrolls the column under the pointer."""
import time

import pytest
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction

from pages import board_state, canvas_origin, long_press_drag, scene_cells, touch_tap, wait_for

BOTH = pytest.mark.engines("chromium", "webkit")


@pytest.fixture
def wide(engine):
    """A window wide enough for three columns: a drag into the next column ends inside the page."""
    from conftest import make_driver
    d = make_driver(width=1000, height=760, engine=engine)
    yield d
    d.quit()


def order(server, section):
    return next(s["items"] for s in server.board("kanban")["order"] if s["section"] == section)


def open_kanban(browser, server):
    browser.get(server.http + "/?board=kanban&debug=1")
    wait_for(lambda: (scene_cells(browser) or {}).get("todo-3"))
    assert board_state(browser, "st.scene.columns") is True


def view_center(browser, item):
    """Where the page draws `item`'s cell (the board's sideways scroll, its column's own)."""
    x0, y0 = canvas_origin(browser)
    c = board_state(browser, """(() => {
        const s = st.scene, c = s.cells.get(%r), f = c.frame.to;
        const col = s.columnScroll.get(c.section);
        return [f.x + f.w / 2 - s.scrollX.to, f.y + f.h / 2 - (col ? col.to : 0)];
    })()""" % item)
    return x0 + c[0], y0 + c[1]


def scrolls(browser):
    return board_state(browser, "[st.scene.scrollX.to, Object.fromEntries([...st.scene.columnScroll].map(([k, a]) => [k, a.to]))]")


# Allowed in CI (Tests/conftest.py): no WebKitGTK anywhere delivers WebDriver touch as touch.
WEBKIT_TOUCH = "WebKitGTK's WebDriver delivers touch actions as a mouse (pointerType 'mouse'): the mouse run is the same"


@BOTH
@pytest.mark.parametrize("kind", ["mouse", "touch"])
@pytest.mark.ci_skip_allowed(WEBKIT_TOUCH)
def test_a_card_dragged_into_the_next_column_commits_between_its_second_and_third(live_server, wide, engine, kind):
    if engine == "webkit" and kind == "touch":
        pytest.skip(WEBKIT_TOUCH)
    browser = wide
    open_kanban(browser, live_server)
    start = view_center(browser, "backlog-2")
    two, three = view_center(browser, "todo-2"), view_center(browser, "todo-3")
    # Between the second and third card of To do: below the second's midpoint, above the third's.
    end = (two[0], (two[1] + three[1]) / 2)
    long_press_drag(browser, start, end, kind=kind)
    wait_for(lambda: live_server.board("kanban")["version"] == 1)
    assert order(live_server, "todo")[:4] == ["todo-1", "todo-2", "backlog-2", "todo-3"], (start, end, two, three)
    assert "backlog-2" not in order(live_server, "backlog")
    assert live_server.board("kanban")["version"] == 1
    # The page's own picture agrees once the snapshot has landed.
    wait_for(lambda: (scene_cells(browser) or {}).get("backlog-2", {}).get("section") == "todo"
             and not scene_cells(browser)["backlog-2"]["hidden"])


def pan(browser, start, end, kind="touch", steps=10):
    kinds = {"touch": interaction.POINTER_TOUCH, "mouse": interaction.POINTER_MOUSE}
    ab = ActionBuilder(browser, mouse=PointerInput(kinds[kind], kind))
    ab.pointer_action.move_to_location(int(start[0]), int(start[1]))
    ab.pointer_action.pointer_down()
    for k in range(1, steps + 1):
        ab.pointer_action.move_to_location(int(start[0] + (end[0] - start[0]) * k / steps),
                                           int(start[1] + (end[1] - start[1]) * k / steps))
        ab.pointer_action.pause(0.02)
    ab.pointer_action.pointer_up()
    ab.perform()


def test_a_sideways_pan_scrolls_the_board_and_a_vertical_one_its_column_alone(live_server, browser):
    open_kanban(browser, live_server)
    x0, y0 = canvas_origin(browser)
    before = scrolls(browser)
    assert before[0] == 0 and set(before[1].values()) == {0}
    # Vertical (a little sideways) over Backlog, the first column: that column alone scrolls.
    pan(browser, (x0 + 100, y0 + 500), (x0 + 120, y0 + 300))
    wait_for(lambda: scrolls(browser)[1]["backlog"] >= 150)
    still(browser, (x0 + 100, y0 + 300))
    after = scrolls(browser)
    assert after[0] == 0
    assert all(v == 0 for k, v in after[1].items() if k != "backlog"), after
    # Mostly sideways (and a little down), starting over Backlog: the board scrolls, no column does.
    pan(browser, (x0 + 300, y0 + 300), (x0 + 100, y0 + 330))
    wait_for(lambda: scrolls(browser)[0] >= 150)
    still(browser, (x0 + 100, y0 + 300))
    assert scrolls(browser)[1] == after[1]


def still(browser, at):
    """Stops every fling (a finger's tap stops them, as on iOS), then waits for the answer to
    an `undo` sent after it (nothing to undo: an error, and nothing else changes): every
    scroll the server decided before is then on the page, and none can follow."""
    touch_tap(browser, at)
    browser.execute_script("""window.__errors = [];
        document.addEventListener('liftboard-error', (e) => window.__errors.push(e.detail.code), {once: true});
        document.getElementById('board').undo();""")
    codes = wait_for(lambda: browser.execute_script("return window.__errors.length === 1 && window.__errors"), what="the answer to an undo")
    assert codes == ["cannot_undo"], codes


@BOTH
def test_the_wheel_scrolls_the_column_under_the_pointer(live_server, browser):
    open_kanban(browser, live_server)
    x0, y0 = canvas_origin(browser)
    browser.execute_script("""
        const c = document.getElementById('board').shadowRoot.querySelector('canvas'), r = c.getBoundingClientRect();
        c.dispatchEvent(new WheelEvent('wheel', {deltaY: 200, clientX: r.left + 40, clientY: r.top + 200, bubbles: true, cancelable: true}));""")
    wait_for(lambda: scrolls(browser)[1]["backlog"] == 200)
    assert scrolls(browser)[0] == 0 and scrolls(browser)[1]["todo"] == 0


DOTS_JS = """
const done = arguments[arguments.length - 1], id = arguments[0];
Promise.all([import(new URL('card.js', location.href).href), import(new URL('scene.js', location.href).href)]).then(([card, sc]) => {
  const s = window.__liftboard.scene, c = s.cells.get(id), f = c.frame.to;
  const v = sc.contentToView(s, c.section, f.x, f.y, 0, true);
  done(card.moreButton({...f, x: v.x, y: v.y}, sc.inGrid(s, c) && card.isRich(c), !!c.selected));
});
"""


def test_a_fingers_dots_button_opens_move_to_on_a_board_scrolled_sideways_and_down(live_server, browser):
    # Chromium only: WebKitGTK's WebDriver delivers touch actions as a mouse, which wears no "⋯".
    open_kanban(browser, live_server)
    x0, y0 = canvas_origin(browser)
    # The board 150 px sideways (To do's body now starts at x 142), To do 120 px down.
    browser.execute_script("""
        const c = document.getElementById('board').shadowRoot.querySelector('canvas'), r = c.getBoundingClientRect();
        c.dispatchEvent(new WheelEvent('wheel', {deltaX: 150, clientX: r.left + 200, clientY: r.top + 200, bubbles: true, cancelable: true}));
        c.dispatchEvent(new WheelEvent('wheel', {deltaY: 120, clientX: r.left + 200, clientY: r.top + 200, bubbles: true, cancelable: true}));""")
    wait_for(lambda: scrolls(browser)[0] == 150 and scrolls(browser)[1]["todo"] == 120)
    card = view_center(browser, "todo-4")
    touch_tap(browser, (card[0] - 60, card[1]))
    time.sleep(0.3)
    b = browser.execute_async_script(DOTS_JS, "todo-4")
    touch_tap(browser, (x0 + b["x"], y0 + b["y"]))
    label = wait_for(lambda: browser.execute_script(
        "const m = document.getElementById('board').shadowRoot.querySelector('[role=menu]');"
        "return m.hidden ? null : m.getAttribute('aria-label')"))
    assert label == "Move Password reset e-mail copy to…"
    assert board_state(browser, "st.scene.snapshots.size") == 0
