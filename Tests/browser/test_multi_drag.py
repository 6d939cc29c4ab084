"""Several items in one drag, in Chromium, the way a person does it: one finger long-presses a
card, a second finger taps another card (UIKit's tap-to-add), the first finger drags them both
and lets go; and Ctrl-clicks with a mouse select cards that a drag then carries together."""
import json

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.mouse_button import MouseButton

from pages import board_state, cell_center, ctrl_click, long_press_drag, open_board, wait_for


# Records the largest `count` any snapshot of the demo page's scene carries, on every animation frame.
STACK_WATCH = """
window.__stackSeen = 0;
const watch = () => {
  for (const s of window.__liftboard.scene.snapshots.values()) window.__stackSeen = Math.max(window.__stackSeen, s.count || 0);
  requestAnimationFrame(watch);
};
requestAnimationFrame(watch);
"""


def order(server, section):
    return next(s["items"] for s in server.board()["order"] if s["section"] == section)


def last_change(server):
    status, _, body = server.get("/api/boards/demo/history")
    assert status == 200
    return json.loads(body)["versions"][-1]["change"]


def test_a_two_finger_multi_drag_commits_one_group_and_the_page_stacks_the_cards(live_server, browser):
    open_board(browser, live_server)
    milk = cell_center(browser, "milk")
    plants = cell_center(browser, "plants")
    plants_h = board_state(browser, "st.scene.cells.get('plants').frame.to.h")
    # Where tax will be once plants has left the picture (its row and the 1 px spacing).
    tax_y = cell_center(browser, "tax")[1] - plants_h - 1
    browser.execute_script(STACK_WATCH)
    # Finger 1 holds milk until it lifts; finger 2 taps plants meanwhile; finger 1 then drags
    # both to just past tax and lets go. One action sequence, tick by tick.
    ab = ActionBuilder(browser)
    f1 = ab.add_pointer_input(interaction.POINTER_TOUCH, "finger1")
    f2 = ab.add_pointer_input(interaction.POINTER_TOUCH, "finger2")

    def tick(a, b):
        a(f1)
        b(f2)

    still = lambda f: f.create_pause(0)  # noqa: E731
    tick(lambda f: f.create_pointer_move(x=int(milk[0]), y=int(milk[1])), still)
    tick(lambda f: f.create_pointer_down(button=MouseButton.LEFT), still)
    tick(lambda f: f.create_pause(0.8), lambda f: f.create_pause(0.8))
    tick(still, lambda f: f.create_pointer_move(x=int(plants[0]), y=int(plants[1])))
    tick(still, lambda f: f.create_pointer_down(button=MouseButton.LEFT))
    tick(lambda f: f.create_pause(0.08), lambda f: f.create_pause(0.08))
    tick(still, lambda f: f.create_pointer_up(button=MouseButton.LEFT))
    tick(lambda f: f.create_pause(0.3), lambda f: f.create_pause(0.3))
    steps = 14
    for k in range(1, steps + 1):
        y = milk[1] + (tax_y + 10 - milk[1]) * k / steps
        tick(lambda f, y=y: f.create_pointer_move(x=int(milk[0]), y=int(y)), still)
        tick(lambda f: f.create_pause(0.03), lambda f: f.create_pause(0.03))
    tick(lambda f: f.create_pause(0.1), lambda f: f.create_pause(0.1))
    tick(lambda f: f.create_pointer_up(button=MouseButton.LEFT), still)
    ab.perform()
    wait_for(lambda: live_server.board()["version"] == 1)
    change = last_change(live_server)
    assert change["group"] == ["milk", "plants"] and change["section"] == "todo" and change["after"] == "tax"
    # They landed together, in the group's order, right after tax; the pinned card keeps index 2
    # (it may stand between them).
    items = order(live_server, "todo")
    assert items[2] == "pinned"
    movable = [i for i in items if i != "pinned"]
    assert movable[movable.index("tax") + 1: movable.index("tax") + 3] == ["milk", "plants"]
    # The page heard the added lift and drew one snapshot carrying two cards.
    assert board_state(browser, "st.gestures.lift") == 2
    assert browser.execute_script("return window.__stackSeen") == 2


def test_ctrl_clicks_select_cards_that_a_mouse_drag_then_carries_together(live_server, browser):
    open_board(browser, live_server)
    bike = cell_center(browser, "bike")
    milk = cell_center(browser, "milk")

    ctrl_click(browser, bike)
    ctrl_click(browser, milk)
    # Frames marked both selected.
    wait_for(lambda: board_state(browser, "st.scene.cells.get('bike').selected && st.scene.cells.get('milk').selected"))
    # A mouse long press on bike lifts the selection (milk, bike: committed order) and drags it
    # up to just past mum: both land after mum, the pinned card keeping index 2 between them.
    mum = cell_center(browser, "mum")
    long_press_drag(browser, bike, (bike[0], mum[1] + 10), kind="mouse")
    wait_for(lambda: live_server.board()["version"] == 1)
    assert last_change(live_server) == {"group": ["milk", "bike"], "section": "todo", "after": "mum", "index": 1}
    assert order(live_server, "todo")[:4] == ["mum", "milk", "pinned", "bike"]
