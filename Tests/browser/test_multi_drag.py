"""Several items in one drag, in Chromium, the way a person does it: one finger long-presses a
card, a second finger taps another card (UIKit's tap-to-add), the first finger drags them both
and lets go; and Ctrl-clicks with a mouse select cards that a drag then carries together."""
import json

from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.common.action_chains import ActionChains

from pages import board_state, cell_center, open_board, wait_for


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
    # Finger 1 holds milk until it lifts; finger 2 taps plants meanwhile.
    ab = ActionBuilder(browser)
    f1 = ab.add_pointer_input(interaction.POINTER_TOUCH, "finger1")
    f2 = ab.add_pointer_input(interaction.POINTER_TOUCH, "finger2")
    f1.create_pointer_move(x=int(milk[0]), y=int(milk[1]))
    f2.create_pause(0)
    f1.create_pointer_down()
    f2.create_pause(0)
    f1.create_pause(0.8)
    f2.create_pause(0.8)
    f1.create_pause(0)
    f2.create_pointer_move(x=int(plants[0]), y=int(plants[1]))
    f1.create_pause(0)
    f2.create_pointer_down()
    f1.create_pause(0.08)
    f2.create_pause(0.08)
    f1.create_pause(0)
    f2.create_pointer_up()
    ab.perform()
    # The page heard the added lift and draws one snapshot carrying two cards.
    wait_for(lambda: board_state(browser, "[...st.scene.snapshots.values()].some(s => s.count === 2 && s.id === 'milk')"))
    assert board_state(browser, "st.gestures.lift") == 2
    # The tapped card left the picture; finger 1 still drives the drag (the prediction kept it).
    wait_for(lambda: board_state(browser, "!st.scene.cells.has('plants') || st.scene.cells.get('plants').hidden"))
    report = cell_center(browser, "report")
    ab = ActionBuilder(browser)
    f1 = ab.add_pointer_input(interaction.POINTER_TOUCH, "finger1")
    steps = 14
    for k in range(1, steps + 1):
        f1.create_pointer_move(x=int(milk[0]), y=int(milk[1] + (report[1] + 10 - milk[1]) * k / steps))
        f1.create_pause(0.03)
    f1.create_pause(0.1)
    f1.create_pointer_up()
    ab.perform()
    wait_for(lambda: order(live_server, "doing")[:3] == ["report", "milk", "plants"])
    assert last_change(live_server) == {"group": ["milk", "plants"], "section": "doing", "after": "report", "index": 1}
    assert "milk" not in order(live_server, "todo") and "plants" not in order(live_server, "todo")


def test_ctrl_clicks_select_cards_that_a_mouse_drag_then_carries_together(live_server, browser):
    open_board(browser, live_server)
    bike = cell_center(browser, "bike")
    milk = cell_center(browser, "milk")

    def ctrl_click(point):
        # ActionChains keeps the key and the mouse in step: Ctrl is held during the click.
        ActionChains(browser).key_down(Keys.CONTROL).move_to_location(int(point[0]), int(point[1])) \
            .click().key_up(Keys.CONTROL).perform()

    ctrl_click(bike)
    ctrl_click(milk)
    # Frames marked both selected.
    wait_for(lambda: board_state(browser, "st.scene.cells.get('bike').selected && st.scene.cells.get('milk').selected"))
    # A mouse long press on bike lifts the selection (milk, bike: committed order) and drags it
    # into Doing, after report.
    report = cell_center(browser, "report")
    ActionChains(browser).move_to_location(int(bike[0]), int(bike[1])).click_and_hold().pause(0.8) \
        .move_to_location(int(bike[0]), int((bike[1] + report[1]) / 2)).pause(0.05) \
        .move_to_location(int(bike[0]), int(report[1] + 10)).pause(0.15).release().perform()
    wait_for(lambda: order(live_server, "doing")[:3] == ["report", "milk", "bike"])
    assert last_change(live_server)["group"] == ["milk", "bike"]
