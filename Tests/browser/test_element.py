"""The first risk of issue 26, kept as a test: a custom element whose canvas lives in its shadow
root gets real pointer input (WebDriver actions, hit-tested by the engine) in Chromium, WebKitGTK
and Firefox ESR, at the coordinates the element's own box says."""
import pytest

from pages import canvas_origin, click_at, open_board, scene_cells, wait_for

THREE = pytest.mark.engines("chromium", "webkit", "firefox")


@THREE
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
    click_at(browser, (int(x0) + 40, int(y0) + 50))
    seen = wait_for(lambda: browser.execute_script("return seen.length >= 2 && seen"))
    assert seen == [["pointerdown", "mouse", 40, 50], ["pointerup", "mouse", 40, 50]]


@THREE
def test_an_element_without_a_height_is_480_px_tall_follows_its_own_size_and_closes_when_removed(live_server, browser):
    open_board(browser, live_server)
    browser.execute_script("""
        const el = document.createElement('liftboard-board');
        el.id = 'extra';
        el.style.cssText = 'position: fixed; left: 0; top: 0; width: 400px';
        document.body.append(el);""")
    wait_for(lambda: "milk" in (scene_cells(browser, "#extra") or {}))
    assert browser.execute_script("return document.getElementById('extra').getBoundingClientRect().height") == 480
    width = scene_cells(browser, "#extra")["milk"]["frame"]["w"]
    # Its own size, not the window's: a narrower element gets a narrower layout (a `resize`).
    browser.execute_script("document.getElementById('extra').style.width = '300px'")
    wait_for(lambda: scene_cells(browser, "#extra")["milk"]["frame"]["w"] < width)
    assert scene_cells(browser)["milk"]["frame"]["w"] > scene_cells(browser, "#extra")["milk"]["frame"]["w"]
    assert b'"sessions":2' in live_server.get("/healthz")[2]
    browser.execute_script("document.getElementById('extra').remove()")
    assert browser.execute_script("return document.getElementById('board').dataset.connection") == "open"
    # Removed, it hangs up: the server soon counts one session, the demo page's.
    wait_for(lambda: live_server.get("/healthz")[2].find(b'"sessions":1') >= 0)
