""""Move to…" (issue 25), the single-pointer alternative to a drag (WCAG 2.5.7): a right click
on a card opens a real menu (role menu, menuitems, focus on the first), and choosing an entry
commits the move; the keyboard opens it with Shift+F10 and walks it with arrows. In Chromium,
WebKitGTK and Firefox ESR."""
import pytest
from selenium.webdriver.common.keys import Keys

from pages import board_state, cell_center, click_at, keys, open_board, right_press, wait_for

THREE = pytest.mark.engines("chromium", "webkit", "firefox")


def order(server, section):
    return next(s["items"] for s in server.board()["order"] if s["section"] == section)


MENU_JS = "return document.getElementById('board').shadowRoot.querySelector('[role=menu]')"


def menu_items(browser):
    return browser.execute_script(MENU_JS + ".hidden ? null : [...document.getElementById('board').shadowRoot"
                                  ".querySelectorAll('[role=menuitem]')].map(b => b.textContent)")


@THREE
def test_a_right_click_opens_move_to_and_move_to_done_commits_the_card_there(live_server, browser):
    open_board(browser, live_server)
    plants = cell_center(browser, "plants")
    right_press(browser, plants)
    items = wait_for(lambda: menu_items(browser))
    assert items[:4] == ["Up one", "Down one", "To the top", "To the bottom"]
    assert "Move to Done" in items
    # The menu has the focus on its first entry, as a menu does.
    assert browser.execute_script("const r = document.getElementById('board').shadowRoot; "
                                  "return r.activeElement && r.activeElement.textContent") == "Up one"
    button = browser.execute_script("return [...document.getElementById('board').shadowRoot"
                                    ".querySelectorAll('[role=menuitem]')].find(b => b.textContent === 'Move to Done')")
    r = browser.execute_script("const b = arguments[0].getBoundingClientRect(); return [b.left + b.width / 2, b.top + b.height / 2];", button)
    click_at(browser, r)
    wait_for(lambda: order(live_server, "done") == ["plants"])
    assert "plants" not in order(live_server, "todo")
    assert menu_items(browser) is None
    wait_for(lambda: "Water the plants moved to Done" in (browser.execute_script(
        "return document.getElementById('board').shadowRoot.querySelector('[aria-live]').textContent") or ""))


@THREE
def test_the_keyboard_opens_move_to_with_shift_f10_and_escape_closes_it(live_server, browser):
    open_board(browser, live_server)
    canvas = browser.execute_script("return document.getElementById('board').shadowRoot.querySelector('canvas')")
    canvas.click()
    keys(browser, Keys.ARROW_DOWN)  # the first key focuses the first card
    wait_for(lambda: board_state(browser, "st.scene.focus") == "milk")
    keys(browser, Keys.F10, hold=[Keys.SHIFT])
    wait_for(lambda: menu_items(browser))
    keys(browser, Keys.ESCAPE)
    wait_for(lambda: menu_items(browser) is None)
    assert live_server.board()["version"] == 0
    # Again, and to the bottom of To do: End is the last entry (Done), Up from there the one before.
    keys(browser, Keys.F10, hold=[Keys.SHIFT])
    items = wait_for(lambda: menu_items(browser))
    keys(browser, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ENTER)
    assert items[3] == "To the bottom"
    wait_for(lambda: order(live_server, "todo")[-1] == "milk")
