"""Issue 44, "Done when": the two pages of test_presence_pages.py, across processes. Ana's demo
page is served by one `liftboard serve`, Bo's by another, both on one private PostgreSQL
(Tests/pg_fixture.py). While Ana holds milk in a mouse drag, Bo sees her in his header's avatar
stack, milk dimmed with her name on a chip in her color and a marker at her target; his long
press on milk lifts nothing and his page announces who holds it; after Ana's drop his press
lifts it."""
from conftest import make_driver
from pages import board_state, cell_center, open_board, wait_for
from test_presence_pages import LISTEN, a_as_b_hears_it, canvas_pixel, hex_rgb, last_presence, mouse, press_and_drag, the_mark


def press(driver, at):
    """A mouse press at `at`, the button left down and the pointer still: a long press once the
    server's timer fires (`pressMs` of the page's clock). No hold is slept: the caller waits for
    what the press makes observable (the lift, or the announcement of who holds the card)."""
    mouse(driver, "mouseMoved", *at, 0)
    mouse(driver, "mousePressed", *at, 1)


def test_a_card_held_on_one_process_is_drawn_held_and_refused_on_the_other(two_pg_servers, browser):
    pa, pb = two_pg_servers
    ana, bo = browser, make_driver()
    try:
        open_board(bo, pb)
        bo.execute_script(LISTEN)
        open_board(ana, pa)
        ana_session = board_state(ana, "st.session")

        # Ana long-presses milk and drags it onto mum's place, and holds it there.
        x, y = cell_center(ana, "milk")
        _, mum_y = cell_center(ana, "mum")
        press_and_drag(ana, (x, y), (x, mum_y + 20))

        holder = a_as_b_hears_it(bo, ana_session, lambda h: h["holds"] == ["milk"] and h.get("target"),
                                 "Bo's presence never listed Ana (on the other process) holding milk with a target")
        assert holder["target"]["section"] == "todo", holder
        wait_for(lambda: board_state(bo, "st.scene.cells.get('milk').heldBy") == holder["name"],
                 what="Bo's milk cell never got heldBy")
        mark = the_mark(bo, "Bo's canvas never drew Ana's marker")
        assert (mark["id"], mark["name"], mark["color"]) == ("milk", holder["name"], holder["color"])
        # The marker sits at Ana's target, within To do, and is her color on Bo's canvas.
        bar = mark["marker"]
        assert bar["w"] > 100, mark
        assert canvas_pixel(bo, bar["x"] + bar["w"] - 4, bar["y"] + bar["h"] / 2)[:3] == hex_rgb(holder["color"])
        chip = mark["chip"]
        assert canvas_pixel(bo, chip["x"] + 5, chip["y"] + chip["h"] / 2)[:3] == hex_rgb(holder["color"])
        # Bo's header: Ana's initials on her color.
        avatars = bo.execute_script("""return [...document.querySelectorAll('#people .avatar')].map(
            (e) => [e.textContent, getComputedStyle(e).backgroundColor, e.title]);""")
        want = "rgb({}, {}, {})".format(*hex_rgb(holder["color"]))
        assert any(a[1] == want and a[2] == holder["name"] + " (moving a card)" for a in avatars), avatars

        # Bo's long press on milk lifts nothing and says who holds it.
        bx, by = cell_center(bo, "milk")
        said = f"{holder['name']} is moving Buy milk."
        press(bo, (bx, by))
        wait_for(lambda: said in (board_state(bo, "st.announcements") or []), what=f"Bo's page never announced {said!r}")
        # The server answered the press with the announcement, not a lift; the page takes back
        # the snapshot its own press timer lifted (once a frame acks the press without a lift).
        assert board_state(bo, "st.lifts.size") == 0, "the server lifted the card Ana holds"
        wait_for(lambda: board_state(bo, "st.scene.snapshots.size") == 0, what="Bo's page still shows a snapshot of the held card")
        mouse(bo, "mouseReleased", bx, by, 0)

        # Ana drops: the hold leaves Bo's presence and cells, and his press lifts milk.
        mouse(ana, "mouseReleased", x, mum_y + 20, 0)
        wait_for(lambda: all(not p["holds"] for p in last_presence(bo)["people"]), what="Bo still lists a hold after Ana's drop")
        wait_for(lambda: board_state(bo, "st.scene.cells.get('milk').heldBy") is None, what="Bo's milk stays held")
        wait_for(lambda: board_state(bo, "st.scene.presenceDrawn.length") == 0, what="Bo still draws Ana's chip")
        bx, by = cell_center(bo, "milk")
        press(bo, (bx, by))
        wait_for(lambda: board_state(bo, "st.lifts.size") == 1 and board_state(bo, "[...st.lifts.values()][0].id") == "milk",
                 what="Bo's press on milk lifted nothing after Ana's drop")
        mouse(bo, "mouseReleased", bx, by, 0)
    finally:
        bo.quit()
