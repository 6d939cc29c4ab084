"""Issue 42 in a real headless Chromium: people with signed tokens and roles, on a real
`liftboard serve --auth-keys` (tokens minted by PyJWT). A `view` page scrolls, but its long
press lifts nothing and its undo is `role_forbids`, while a `move` page on the same board drags
and both see the commit with its user; a `move` page cannot use the trash, an `edit` page can;
a page renewing through `auth-endpoint` (Examples/auth/host.py) keeps a drag in flight across
its first token's expiry, and so does the iframe (`/embed?auth=parent`) whose host page posts
it tokens; a page whose token is not renewed is closed at `exp` with `liftboard-error`
`token_expired`, nothing committed; a token refused at the upgrade (another board, long
expired) is named by `liftboard-error`."""
import base64
import json
import math
import socket
import time

import pytest

from auth_helpers import HostApp, Keys, api_board, live_version, order, sign_in
from conftest import make_driver
from liftboard_server import RunningServer
from pages import board_state, canvas_origin, cell_center, debug_query, pointer, scene_cells, wait_for

# Installed before any script of the page: every liftboard-* event the document hears, in order.
EVENTS = """
window.__events = [];
for (const t of ['lift', 'move', 'drop', 'cancel', 'commit', 'connection', 'error', 'token-expiring'])
  document.addEventListener('liftboard-' + t, (e) => window.__events.push({type: t, detail: e.detail, at: Date.now()}));
"""
WARNING = 3  # --token-warning: seconds before exp the server says token_expiring


@pytest.fixture
def keys(tmp_path):
    return Keys(tmp_path)


@pytest.fixture
def servers(tmp_path, keys):
    """Starts `liftboard serve --auth-keys … --token-warning 3` with `extra` arguments."""
    started = []

    def start(*extra):
        s = RunningServer("--auth-keys", str(keys.path), "--token-warning", str(WARNING), *extra, data_dir=tmp_path / "data")
        started.append(s)
        return s.start()
    yield start
    for s in started:
        s.stop()


@pytest.fixture
def server(servers):
    return servers()


@pytest.fixture
def drivers():
    made = []

    def make(width=420, height=1400):
        d = make_driver(width, height)
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": EVENTS})
        made.append(d)
        return d
    yield make
    for d in made:
        d.quit()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def events(driver, kind=None):
    got = driver.execute_script("return window.__events || []")
    return [e for e in got if kind is None or e["type"] == kind]


def open_page(driver, server, token, board="demo"):
    """The demo page with a token (`?token=`, as a kiosk or a link would pass it), once its
    board is drawn."""
    driver.get(f"{server.http}/{debug_query(f'?board={board}&token={token}')}")
    wait_for(lambda: (scene_cells(driver) or {}).get("milk"), what="the board drawn with a token")


def answered_undo(driver):
    """Calls undo() and waits for its answer (an error: this page committed nothing): every
    message the page sent before it has been handled by then. Returns the error's code."""
    before = len(events(driver, "error"))
    driver.execute_script("document.getElementById('board').undo()")
    got = wait_for(lambda: events(driver, "error")[before:], what="the answer to undo()")
    return got[0]["detail"]["code"]


def slow_drag(driver, start, end, seconds, kind="touch", hold=0.8):
    """A long press, then a drag from `start` to `end` that lasts at least `seconds` more before
    it is released: small moves, each Selenium's 250 ms, with pauses."""
    steps = max(4, math.ceil(seconds / 0.3))
    moves = []
    for k in range(1, steps + 1):
        moves += [("move", start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps), ("pause", 0.05)]
    pointer(driver, kind, [("move", *start), ("down",), ("pause", hold), *moves, ("pause", 0.1), ("up",)])


def test_a_view_page_scrolls_and_lifts_nothing_while_a_move_page_drags_and_both_see_the_commit(server, keys, drivers):
    viewer, mover = drivers(height=760), drivers()
    open_page(viewer, server, keys.mint("vera", "view", name="Vera"))
    open_page(mover, server, keys.mint("mo", "move", name="Mo"))
    reader = keys.mint("reader", "view")

    # It scrolls: the wheel over the canvas, as a mouse would.
    viewer.execute_script("""
        const c = document.getElementById('board').shadowRoot.querySelector('canvas'), r = c.getBoundingClientRect();
        c.dispatchEvent(new WheelEvent('wheel', {deltaY: 120, clientX: r.left + 40, clientY: r.top + 200, bubbles: true, cancelable: true}));""")
    wait_for(lambda: board_state(viewer, "st.scene.scroll.to") > 0, what="the view page to scroll")
    viewer.execute_script("""
        const c = document.getElementById('board').shadowRoot.querySelector('canvas'), r = c.getBoundingClientRect();
        c.dispatchEvent(new WheelEvent('wheel', {deltaY: -1000, clientX: r.left + 40, clientY: r.top + 200, bubbles: true, cancelable: true}));""")
    wait_for(lambda: board_state(viewer, "st.scene.scroll.to") == 0, what="the view page back at the top")

    # A long press and a drag lift nothing; the undo after them is answered, so they were handled.
    start = cell_center(viewer, "milk")
    slow_drag(viewer, start, (start[0], cell_center(viewer, "mum")[1] + 10), 1.0)
    assert answered_undo(viewer) == "role_forbids"
    assert events(viewer, "lift") == [] and board_state(viewer, "st.gestures.lift") == 0
    assert api_board(server, reader)["version"] == 0

    # The move page on the same board drags; both pages see the commit, signed by Mo.
    start = cell_center(mover, "milk")
    slow_drag(mover, start, (start[0], cell_center(mover, "mum")[1] + 10), 1.0)
    wait_for(lambda: order(api_board(server, reader))["todo"][:2] == ["mum", "milk"], what="the move page's commit")
    for page in (viewer, mover):
        commit = wait_for(lambda: events(page, "commit"), what="the commit on both pages")[0]["detail"]
        assert (commit["user"], commit["name"]) == ("mo", "Mo"), commit
    assert events(mover, "commit")[0]["detail"]["own"] is True
    assert events(viewer, "commit")[0]["detail"]["own"] is False
    assert events(viewer, "lift") == []


def trash_point(driver):
    """A point inside the demo board's trash (the whole board in view: 420 x 1400)."""
    f = board_state(driver, "st.scene.sections.find((s) => s.id === 'trash').frame")
    x0, y0 = canvas_origin(driver)
    return x0 + f["x"] + f["w"] / 2, y0 + f["y"] + f["h"] / 2 - board_state(driver, "st.scene.scroll.to")


@pytest.mark.parametrize("role,removed", [("move", False), ("edit", True)])
def test_the_trash_is_an_edit_right(server, keys, drivers, role, removed):
    page = drivers()
    open_page(page, server, keys.mint("pat", role))
    reader = keys.mint("reader", "view")
    before = order(api_board(server, reader))
    start = cell_center(page, "milk")
    slow_drag(page, start, trash_point(page), 1.0, kind="mouse")
    # The server's drop: the drop is decided, and its commit (if any) is in the live version.
    drop = wait_for(lambda: events(page, "drop"), what="the drag's drop")[0]["detail"]
    version = live_version(server, reader)
    wait_for(lambda: api_board(server, reader)["version"] == version, what="the drop's commit durable")
    now = order(api_board(server, reader))
    items = sorted(sum(now.values(), []))
    if removed:
        assert drop["to"]["section"] == "trash", drop
        assert items == sorted(i for i in sum(before.values(), []) if i != "milk"), now
    else:
        # A refused place: the drop lands elsewhere; milk is still on the board, every item with it.
        assert drop["to"]["section"] != "trash", drop
        assert items == sorted(sum(before.values(), [])), now
    assert now["trash"] == []


def test_a_session_renewed_through_its_auth_endpoint_keeps_a_drag_across_the_first_tokens_expiry(servers, keys, drivers, tmp_path):
    users = tmp_path / "users.json"
    users.write_text(json.dumps({"mo": {"name": "Mo", "boards": ["demo"], "role": "move"}}))
    ttl = 2 * WARNING  # the first renewal halfway through a token's life
    port = free_port()
    # The host app's pages load the element from the server and open its sockets.
    server = servers("--allow-origin", f"http://127.0.0.1:{port}")
    host = None
    try:
        host = HostApp("--keys", str(keys.signer), "--users", str(users), "--liftboard", server.http, "--ttl", str(ttl), "--port", str(port))
        page = drivers()
        sign_in(page, host, "mo")
        wait_for(lambda: (scene_cells(page, "#board") or {}).get("milk"), what="the host page's board")
        connected = time.time()  # the first token was minted before this: it expires by connected + ttl
        assert host.token_requests() == 1
        start = cell_center(page, "milk", "#board")
        end = (start[0], cell_center(page, "dentist", "#board")[1])
        slow_drag(page, start, end, ttl + 1.5)
        assert time.time() > connected + ttl + 1, "the drag ended before the first token's expiry"
        reader = keys.mint("reader", "view")
        wait_for(lambda: api_board(server, reader)["version"] == 1, what="the drag's commit")
        assert order(api_board(server, reader))["todo"][0] != "milk"
        assert host.token_requests() >= 2, host.lines
        assert [e["detail"]["state"] for e in events(page, "connection")][-1:] == ["open"]
        assert "closed" not in [e["detail"]["state"] for e in events(page, "connection")]
        assert events(page, "error") == []
        drop = events(page, "drop")
        assert len(drop) == 1 and drop[0]["detail"]["id"] == "milk"
    finally:
        if host:
            host.stop()


def test_the_iframe_takes_its_tokens_by_postmessage_and_keeps_a_drag_across_the_first_tokens_expiry(servers, keys, drivers, tmp_path):
    users = tmp_path / "users.json"
    users.write_text(json.dumps({"mo": {"name": "Mo", "boards": ["demo"], "role": "move"}}))
    ttl = 2 * WARNING
    port = free_port()
    # The host app's /frame page frames /embed and passes it tokens from its own /token.
    server = servers("--embed-origin", f"http://127.0.0.1:{port}")
    host = None
    try:
        host = HostApp("--keys", str(keys.signer), "--users", str(users), "--liftboard", server.http, "--ttl", str(ttl), "--port", str(port))
        page = drivers(width=600, height=1400)
        sign_in(page, host, "mo")
        page.get(host.url + "frame")
        frame = wait_for(lambda: page.find_elements("id", "frame"), what="the frame page")[0]
        wait_for(lambda: frame.get_attribute("src"), what="the iframe's src")
        # Where the frame's content starts in the page: pointer actions take the page's viewport.
        fx, fy = page.execute_script("const f = document.getElementById('frame'), r = f.getBoundingClientRect();"
                                     "return [r.left + f.clientLeft, r.top + f.clientTop];")
        page.switch_to.frame(frame)
        wait_for(lambda: (scene_cells(page, "#board") or {}).get("milk"), what="the board drawn in the iframe")
        connected = time.time()
        assert host.token_requests() == 1
        start = cell_center(page, "milk", "#board")
        end = (start[0], cell_center(page, "dentist", "#board")[1])
        page.switch_to.default_content()
        slow_drag(page, (start[0] + fx, start[1] + fy), (end[0] + fx, end[1] + fy), ttl + 1.5)
        assert time.time() > connected + ttl + 1, "the drag ended before the first token's expiry"
        reader = keys.mint("reader", "view")
        wait_for(lambda: api_board(server, reader)["version"] == 1, what="the drag's commit")
        page.switch_to.frame(frame)
        assert "closed" not in [e["detail"]["state"] for e in events(page, "connection")]
        assert [e["detail"]["id"] for e in events(page, "drop")] == ["milk"]
        page.switch_to.default_content()
        heard = [e["type"] for e in page.execute_script("return window.hostLog")]
        assert heard[0] == "token-request" and "liftboard-token-expiring" in heard, heard
        assert host.token_requests() >= 2
    finally:
        if host:
            host.stop()


def test_a_session_not_renewed_is_closed_at_exp_with_its_drag_cancelled_and_nothing_committed(server, keys, drivers):
    page = drivers()
    ttl = WARNING + 4
    token = keys.mint("mo", "move", ttl=ttl)
    exp = json.loads(base64.urlsafe_b64decode(token.split(".")[1] + "==="))["exp"]
    open_page(page, server, token)
    start = cell_center(page, "milk")
    slow_drag(page, start, (start[0], cell_center(page, "dentist")[1]), max(0.0, exp - time.time()) + 1.5)
    # Warned (no endpoint: the host is told, and gave nothing), then closed at exp, and told why.
    assert [e["detail"]["ms"] > 0 for e in events(page, "token-expiring")] == [True]
    error = wait_for(lambda: events(page, "error"), what="liftboard-error")[0]
    assert error["detail"]["code"] == "token_expired"
    assert error["at"] / 1000 >= exp - 1, (error["at"] / 1000, exp)  # at exp by the server's clock, not before
    assert board_state(page, "st.open") is False
    # The drag was lifted, then cancelled by the close: nothing committed, nothing moved.
    assert len(events(page, "lift")) == 1
    assert api_board(server, keys.mint("reader", "view"))["version"] == 0


@pytest.mark.parametrize("boards,ttl,status,code", [(["garden"], 600, 403, "board_forbidden"), (["demo"], -120, 401, "token_expired")])
def test_a_page_whose_token_the_server_refuses_at_the_upgrade_says_why(server, keys, drivers, boards, ttl, status, code):
    page = drivers()
    # Expired beyond the server's 60 s of leeway, or naming another board: refused before the upgrade.
    token = keys.mint("mo", "move", boards=boards, ttl=ttl)
    page.get(f"{server.http}/{debug_query(f'?board=demo&token={token}')}")
    error = wait_for(lambda: events(page, "error"), what="liftboard-error")[0]["detail"]
    assert error["code"] == code, error
    assert board_state(page, "st.open") is False and scene_cells(page) == {}
    server.wait_for_line(f"refusal upgrade {status} {code}")  # the server refused it, for that reason
    assert not any("eyJ" in l for l in server.lines), "a token in the server's log"
