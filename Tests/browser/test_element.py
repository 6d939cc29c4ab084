"""The first risk of issue 26, kept as a test: a custom element whose canvas lives in its shadow
root gets real pointer input (WebDriver actions, hit-tested by the engine) in Chromium and in
WebKitGTK, at the coordinates the element's own box says."""
import pytest

from pages import canvas_origin, open_board, wait_for
from selenium.webdriver.common.action_chains import ActionChains


@pytest.mark.engines("chromium", "webkit")
def test_the_shadow_root_canvas_receives_pointer_events_where_they_land(live_server, browser):
    open_board(browser, live_server)
    browser.execute_script("""
        window.seen = [];
        const canvas = document.getElementById('board').shadowRoot.querySelector('canvas');
        for (const t of ['pointerdown', 'pointerup'])
          canvas.addEventListener(t, (ev) => {
            const r = canvas.getBoundingClientRect();
            seen.push([t, ev.pointerType, Math.round(ev.clientX - r.left), Math.round(ev.clientY - r.top)]);
          });""")
    x0, y0 = canvas_origin(browser)
    ActionChains(browser).move_by_offset(int(x0) + 40, int(y0) + 50).click().perform()
    seen = wait_for(lambda: browser.execute_script("return seen.length >= 2 && seen"))
    assert seen == [["pointerdown", "mouse", 40, 50], ["pointerup", "mouse", 40, 50]]
