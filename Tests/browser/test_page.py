"""The page in real browsers against the real `liftboard serve`, driven the way a person
drives it: WebDriver pointer actions (touch, mouse), keys, window sizes. Tests marked
`engines("chromium", "webkit")` run in WebKitGTK too: the page's basics there (load, mouse
drag, keyboard and its live region, resize, pixels, kiosk); all but kiosk run in Firefox ESR
as well (Tests/bidi.py). Touch runs in Chromium only
(WebKitGTK's WebDriver turns touch pointer actions into mouse events); so do the slow
whole-system ones (two windows, a server restart), which exercise no engine-specific code."""
import json
import time

import pytest

from conftest import make_driver
from pages import canvas_origin, cell_center, long_press_drag, open_board, right_press, scene_cells, touch_tap, wait_for


def todo(server):
    return server.board()["order"][0]["items"]


BOTH = pytest.mark.engines("chromium", "webkit")
THREE = pytest.mark.engines("chromium", "webkit", "firefox")


def live_region(browser):
    return browser.execute_script("return document.getElementById('board').shadowRoot.querySelector('[aria-live]')")


@THREE
def test_the_page_loads_with_no_console_errors(live_server, browser, engine):
    open_board(browser, live_server)
    if engine != "webkit":  # WebKitGTK's WebDriver has no log endpoint (Firefox's: BiDi's log events)
        # Loaded: the document and its resources, the session open and answered. The console's
        # messages reach the driver in order with a script's answer, so what the load logged
        # is in the log read after this one.
        wait_for(lambda: browser.execute_script(
            "return document.readyState === 'complete' && window.__liftboard.open && window.__liftboard.received >= 2"),
            what="the page loaded and its session answered")
        severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == []
    assert browser.execute_script("return document.getElementById('status').dataset.state") == "open"


def test_a_touch_long_press_and_drag_commits_the_expected_order(live_server, browser):
    open_board(browser, live_server)
    start = cell_center(browser, "milk")
    end = (start[0], cell_center(browser, "mum")[1] + 10)
    long_press_drag(browser, start, end, kind="touch")
    wait_for(lambda: todo(live_server)[:2] == ["mum", "milk"])
    assert live_server.board()["version"] == 1
    # The page asked for events inline: they came inside frames, and it read them.
    assert browser.execute_script("return window.__liftboard.config.events") == "inline"
    wait_for(lambda: browser.execute_script("return window.__liftboard.gestures.drop") == 1)
    gestures = browser.execute_script("return window.__liftboard.gestures")
    assert gestures["lift"] == 1 and gestures["moved"] >= 1


@THREE
def test_a_mouse_drag_commits_too(live_server, browser):
    open_board(browser, live_server)
    start = cell_center(browser, "plants")
    end = (start[0], cell_center(browser, "bike")[1] + 5)
    long_press_drag(browser, start, end, kind="mouse")
    wait_for(lambda: todo(live_server)[3:6] == ["tax", "bike", "plants"])


def test_a_quick_tap_lifts_nothing(live_server, browser):
    from selenium.webdriver.common.keys import Keys
    open_board(browser, live_server)
    start = cell_center(browser, "milk")
    browser.execute_script("""window.__lifts = 0; document.addEventListener('liftboard-lift', () => window.__lifts++);
        window.__t0 = performance.now(); window.__touch = [];
        for (const t of ['pointerdown', 'pointerup']) document.addEventListener(t, (e) => window.__touch.push(e.timeStamp), true);""")
    touch_tap(browser, start)
    # Quick as the page saw it: well under the press's 500 ms (a slow driver fails here, rather
    # than the test passing on a lift and a drop in place, which commit nothing).
    down, up = wait_for(lambda: browser.execute_script("return window.__touch.length === 2 && window.__touch"), what="the tap")
    assert up - down < 300, f"the tap lasted {up - down:.0f} ms"
    # The proof: a key sent once the press would have fired (the session runs on the page's
    # clock) is answered after the tap's messages; by then no lift came, and none will.
    wait_for(lambda: browser.execute_script("return performance.now() - window.__t0 > 800"), what="800 ms of the page's clock")
    browser.find_element("id", "board").send_keys(Keys.ARROW_DOWN)  # the first key focuses the first item
    wait_for(lambda: browser.execute_script("return window.__liftboard.scene.focus") == "milk", what="the key's answer")
    assert browser.execute_script("return window.__lifts") == 0
    assert browser.execute_script("return window.__liftboard.scene.snapshots.size") == 0
    assert live_server.board()["version"] == 0


def test_a_right_button_long_press_lifts_nothing(live_server, browser):
    open_board(browser, live_server)
    milk = cell_center(browser, "milk")
    right_press(browser, milk, hold=0.8, to=(milk[0], milk[1] + 120))
    # The right button opened "Move to…" instead; Escape closes it.
    menu = "return document.getElementById('board').shadowRoot.querySelector('[role=menu]').hidden"
    wait_for(lambda: browser.execute_script(menu) is False)
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait_for(lambda: browser.execute_script(menu) is True)
    # Then a primary drag: once it has committed, the right button's press is long answered,
    # and the only lift the page heard is the primary's.
    start = cell_center(browser, "plants")
    long_press_drag(browser, start, (start[0], cell_center(browser, "bike")[1] + 5), kind="mouse")
    wait_for(lambda: live_server.board()["version"] == 1)
    wait_for(lambda: browser.execute_script("return window.__liftboard.gestures.drop") == 1)
    assert browser.execute_script("return window.__liftboard.gestures.lift") == 1
    assert todo(live_server)[:2] == ["milk", "mum"]


@THREE
def test_keyboard_reordering_commits_and_its_announcements_reach_the_live_region(live_server, browser):
    from selenium.webdriver.common.keys import Keys
    open_board(browser, live_server)
    canvas = browser.find_element("id", "board")
    canvas.click()  # a click gives the canvas focus but starts no keyboard mode
    # The first key focuses the first item: had the click focused one, the key would move the
    # focus on from it (so focus on milk is the proof, not a look after a sleep).
    canvas.send_keys(Keys.ARROW_DOWN)
    wait_for(lambda: browser.execute_script("return window.__liftboard.scene.focus") == "milk")
    for key in [Keys.ARROW_DOWN, Keys.SPACE, Keys.ARROW_UP, Keys.ENTER]:
        canvas.send_keys(key)
        time.sleep(0.15)
    wait_for(lambda: todo(live_server)[:2] == ["mum", "milk"])
    text = live_region(browser).get_attribute("textContent")
    assert text.startswith("Dropped Call mum")
    assert live_region(browser).get_attribute("aria-live") == "assertive"


def test_a_drag_in_one_window_animates_in_the_other(live_server, browser):
    other = make_driver()
    try:
        open_board(browser, live_server)
        open_board(other, live_server)
        before = scene_cells(other)["milk"]["frame"]["y"]
        start = cell_center(browser, "milk")
        long_press_drag(browser, start, (start[0], cell_center(browser, "mum")[1] + 10))
        wait_for(lambda: scene_cells(other)["milk"]["frame"]["y"] > before)
        assert other.execute_script("return window.__liftboard.commits") >= 1
    finally:
        other.quit()


@THREE
def test_resizing_the_window_relayouts(live_server, browser):
    open_board(browser, live_server)
    width = scene_cells(browser)["milk"]["frame"]["w"]
    browser.set_window_size(900, 760)
    wait_for(lambda: scene_cells(browser)["milk"]["frame"]["w"] > width)


def test_after_a_server_restart_the_page_reconnects_and_shows_the_committed_order(live_server, browser):
    open_board(browser, live_server)
    start = cell_center(browser, "milk")
    long_press_drag(browser, start, (start[0], cell_center(browser, "mum")[1] + 10))
    wait_for(lambda: todo(live_server)[:2] == ["mum", "milk"])
    live_server.stop()
    wait_for(lambda: browser.execute_script("return document.getElementById('status').dataset.state") == "closed")
    live_server.start()
    # The page keeps its port: restart on the same one.
    wait_for(lambda: browser.execute_script("return document.getElementById('status').dataset.state") == "open", timeout=20)
    cells = wait_for(lambda: scene_cells(browser))
    assert cells["mum"]["index"] == 0 and cells["milk"]["index"] == 1


@THREE
def test_pixels_in_a_screenshot_show_the_cells_where_the_layout_says(live_server, browser, tmp_path):
    from PIL import Image
    open_board(browser, live_server)
    time.sleep(0.3)
    shot = tmp_path / "page.png"
    browser.save_screenshot(str(shot))
    img = Image.open(shot).convert("RGB")
    x0, y0 = canvas_origin(browser)
    # The demo's cards wear their color as an accent stripe along the leading edge (issue 25);
    # a card without one is a bar of its color.
    items = live_server.board()["sections"][0]["items"]
    colors = {c["id"]: c.get("accent", c["color"]) for c in items}
    stripe = {c["id"]: "accent" in c for c in items}
    for item in ["milk", "mum", "plants"]:
        f = scene_cells(browser)[item]["frame"]
        x = f["x"] + 6 + 2 if stripe[item] else f["x"] + f["w"] - 30
        px = img.getpixel((int(x0 + x), int(y0 + f["y"] + f["h"] / 2)))
        want = tuple(int(colors[item][i:i + 2], 16) for i in (1, 3, 5))
        assert all(abs(a - b) <= 12 for a, b in zip(px, want)), (item, px, want)


@BOTH
def test_kiosk_mode_hides_the_chrome_asks_for_an_idle_reset_and_hides_an_idle_cursor(live_server, browser):
    open_board(browser, live_server, "?kiosk=1&idle=4000")
    assert browser.execute_script("return getComputedStyle(document.getElementById('chrome')).display") == "none"
    assert browser.execute_script("return window.__liftboard.config.idleResetMs") == 4000
    wait_for(lambda: browser.execute_script("return document.body.classList.contains('idle')"), timeout=6)
    assert browser.execute_script("return getComputedStyle(document.getElementById('board')).cursor") == "none"
    assert browser.execute_script("return document.getElementById('kiosk-notice').hidden") is True
