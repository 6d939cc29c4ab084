"""Issue 23 in a real headless Chromium: the demo board's rules as a person meets them (a
palette refuses a card and gives copies, the page dims the refused snapshot)."""
from pages import cell_center, long_press_drag, open_board, scene_cells, wait_for


def order(server):
    return {s["section"]: s["items"] for s in server.board()["order"]}


def test_a_card_dragged_over_the_palette_is_refused_and_lands_before_it(live_server, browser):
    browser.set_window_size(420, 1400)  # the whole demo board in view: no auto-scroll
    open_board(browser, live_server)
    wait_for(lambda: (scene_cells(browser) or {}).get("errand"))
    # The page marks the snapshot while it is over a refusing section: watch for it.
    browser.execute_script("""
        window.__forbiddenSeen = false;
        const timer = setInterval(() => {
          for (const s of window.__liftboard.scene.snapshots.values()) if (s.forbidden) window.__forbiddenSeen = true;
        }, 5);""")
    start = cell_center(browser, "milk")
    end = (start[0], cell_center(browser, "errand")[1])
    long_press_drag(browser, start, end, kind="touch", steps=20)
    wait_for(lambda: live_server.board()["version"] == 1)
    now = order(live_server)
    assert now["templates"] == ["errand", "call"] and now["done"] == ["milk"], now
    assert browser.execute_script("return window.__forbiddenSeen") is True


def test_a_card_dragged_out_of_the_palette_is_copied(live_server, browser):
    browser.set_window_size(420, 1400)
    open_board(browser, live_server)
    wait_for(lambda: (scene_cells(browser) or {}).get("errand"))
    start = cell_center(browser, "errand")
    end = (start[0], cell_center(browser, "garden")[1] + 10)
    long_press_drag(browser, start, end, kind="mouse", steps=20)
    wait_for(lambda: live_server.board()["version"] == 1)
    now = order(live_server)
    assert now["templates"] == ["errand", "call"], now
    assert "errand~1" in now["doing"], now
    wait_for(lambda: "errand~1" in (scene_cells(browser) or {}))
