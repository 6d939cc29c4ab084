"""The page through a network with a 200 ms round trip (Tests/tools/delay_proxy.py, 100 ms each
way): the lifted cell stays under the finger, the order it commits is the one the geometry
says, and a lift the page starts on its own is undone when the server refuses it."""
import asyncio
import json
import pathlib
import sys
import threading
import time

import pytest
import websockets

from conftest import make_driver
from liftboard_server import RunningServer, live_version, recv_until
from network_drag import ROW_PITCH, analyse, message_counts, row_center_y, steady_drag, thousand_rows_board
from pages import canvas_origin, scene_cells, wait_for

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
from delay_proxy import DelayProxy  # noqa: E402


@pytest.fixture
def rows_server(tmp_path):
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "rows.json").write_text(json.dumps(thousand_rows_board()))
    s = RunningServer("--boards", str(boards), data_dir=tmp_path / "data").start()
    yield s
    s.stop()


@pytest.fixture
def delayed(rows_server):
    proxy = DelayProxy("127.0.0.1", rows_server.port, 100).start()
    yield proxy
    proxy.stop()


def open_rows(driver, proxy):
    driver.set_window_size(420, 1000)  # the drags stay clear of the auto-scroll bands
    driver.get(f"http://127.0.0.1:{proxy.port}/?board=rows&debug=1")
    wait_for(lambda: driver.execute_script("return !!(window.__liftboard && window.__liftboard.config && window.__liftboard.scene.cells.size > 0)"))
    time.sleep(0.3)
    return canvas_origin(driver)


def rows_order(server):
    return server.board("rows")["order"][0]["items"]


def test_at_a_200_ms_round_trip_the_cell_stays_under_the_finger_and_commits_where_it_was_dropped(rows_server, delayed, browser):
    origin = open_rows(browser, delayed)
    # The page predicts, so it asked for quiet follow: the server answers only the moves that
    # pass a row (and the lift and the drop), and the finger gap stays 0 px.
    assert browser.execute_script("return window.__liftboard.config.follow") == "quiet"
    sent0, received0 = message_counts(browser)
    # The messages received up to the drop's commit, the last thing the server says about
    # the drag (the answers to the moves all come before it, in order): counted when it comes.
    browser.execute_script("""document.addEventListener('liftboard-commit',
        () => { window.__atCommit = [window.__liftboard.sent, window.__liftboard.received]; }, {once: true});""")
    distance = 485  # 8.5 rows: the center passes 8 neighbours' midpoints, and not a 9th
    trace, moved = steady_drag(browser, origin, (200, row_center_y(2)), distance)
    sent, received = wait_for(lambda: browser.execute_script("return window.__atCommit"), what="the drop's commit on the page")
    figures = analyse(trace)
    assert figures["frames"] >= 30, figures
    assert figures["gap_mean"] < 4, figures
    assert figures["gap_max"] < 1, figures
    # About 250 moves went out (8 ms apart, coalesced to one a frame); 8 passes, the lift and
    # the press's ping are answered.
    assert sent - sent0 > 40, (sent - sent0, received - received0)
    assert received - received0 <= 16, (sent - sent0, received - received0)
    expected = 2 + int(moved // ROW_PITCH)
    wait_for(lambda: rows_server.board("rows")["version"] == 1)
    order = rows_order(rows_server)
    assert order.index("r2") == expected, (order[:12], figures)
    assert order[:2] == ["r0", "r1"] and order[2:expected] == [f"r{i}" for i in range(3, expected + 1)]


class OtherSession:
    """Another session, connected straight to the server: drags r0 down to row 2, waits, and
    drops it when told (its commit then changes which item lies under row 2's position)."""

    def __init__(self, ws_url):
        self.ws_url = ws_url
        self.holding = threading.Event()
        self.drop = threading.Event()
        self.committed = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self.run()), daemon=True)

    async def run(self):
        async with websockets.connect(self.ws_url, subprotocols=["liftboard.v1"]) as ws:
            await ws.send(json.dumps({"t": "hello", "v": 1, "board": "rows", "viewport": {"w": 420, "h": 900, "dpr": 1}, "ms": 0}))
            await recv_until(ws, lambda m: m["t"] == "layout")
            await ws.send(json.dumps({"t": "down", "p": 1, "x": 200, "y": row_center_y(0), "ms": 0, "kind": "touch"}))
            await recv_until(ws, lambda m: m["t"] == "lift", timeout=5)
            await ws.send(json.dumps({"t": "move", "p": 1, "x": 200, "y": row_center_y(2) + 10, "ms": 0}))
            await recv_until(ws, lambda m: m["t"] == "frame", timeout=2)
            self.holding.set()
            while not self.drop.is_set():
                await asyncio.sleep(0.002)
            await ws.send(json.dumps({"t": "up", "p": 1, "x": 200, "y": row_center_y(2) + 10, "ms": 0}))
            if (await recv_until(ws, lambda m: m["t"] == "commit", timeout=5))[-1]["t"] == "commit":
                self.committed.set()
            await asyncio.sleep(0.5)


def test_a_lift_the_page_starts_on_its_own_gives_way_to_the_item_the_server_lifted(rows_server, delayed, browser):
    """The page presses row 2 (r2); another session's commit reaches the server just before the
    press fires and puts r0 there, but reaches the page (100 ms later) only after the page
    lifted r2 on its own. The server lifts r0: the page undoes r2 and follows the server."""
    origin = open_rows(browser, delayed)
    other = OtherSession(rows_server.ws)
    other.thread.start()
    try:
        assert other.holding.wait(5)
        x, y = origin[0] + 200, origin[1] + row_center_y(2)
        browser.execute_script("window.__liftboard.trace = [];")
        t0 = time.monotonic()
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mousePressed", "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1})
        time.sleep(max(0, 0.47 - (time.monotonic() - t0)))
        other.drop.set()
        assert other.committed.wait(5), "the other session's drop did not commit within 5 s"
        # Until the page has drawn what the server lifted (r0) and shows r2 again.
        wait_for(lambda: browser.execute_script("""
            const st = window.__liftboard, t = st.trace, last = t[t.length - 1];
            return !!last && last.snapshots.length === 1 && last.snapshots[0].id === 'r0'
                && st.scene.cells.get('r2').hidden === false && st.scene.cells.get('r0').hidden === true;"""),
                 what="the page to give way to r0")
        trace = browser.execute_script("const t = window.__liftboard.trace; window.__liftboard.trace = null; return t;")
        ids = [tuple(s["id"] for s in e["snapshots"]) for e in trace if e["snapshots"]]
        assert ids, "nothing was lifted"
        # The page lifted r2 on its own, then gave way: r0 is the only snapshot left.
        assert ids[0] == ("r2",), ids[:3]
        assert ids[-1] == ("r0",), ids[-3:]
        assert scene_cells(browser)["r2"]["hidden"] is False
        assert scene_cells(browser)["r0"]["hidden"] is True
        browser.execute_script("""window.__ends = [];
            for (const type of ['liftboard-drop', 'liftboard-cancel'])
              document.addEventListener(type, (ev) => window.__ends.push([type, ev.detail.id]));""")
        browser.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseReleased", "x": x, "y": y, "button": "left", "buttons": 0, "clickCount": 1})
        # The server's answer to the release (its drop of r0) proves it handled it; the board
        # it holds then (commits not yet durable included) is still at the other session's commit.
        ends = wait_for(lambda: browser.execute_script("return window.__ends"), what="the server's drop of the page's drag")
        assert ends == [["liftboard-drop", "r0"]], ends
        assert asyncio.run(live_version(rows_server, "rows")) == 1  # the page's drop changed nothing
    finally:
        other.drop.set()
        other.thread.join(5)
