"""Boards embedded in another site's page (issue 26), in Chromium and WebKitGTK: Examples/host.html
served from its own origin (a plain static server) with two <liftboard-board> elements and one
/embed iframe, against a real `liftboard serve --allow-origin HOST --embed-origin HOST`. The
elements' events in Firefox ESR too."""
import functools
import http.server
import pathlib
import shutil
import threading

import pytest

from conftest import ROOT, make_driver
from liftboard_server import RunningServer
from pages import board_state, cell_center, long_press_drag, scene_cells, wait_for

BOTH = pytest.mark.engines("chromium", "webkit")
THREE = pytest.mark.engines("chromium", "webkit", "firefox")

# A page of another origin (localhost, not 127.0.0.1) that the tests put in the host page.
SENDER = "<!doctype html><title>another origin</title><p>another origin</p>"


class StaticSite:
    """A plain static server (no CSP) for a folder: the host page's own origin."""

    def __init__(self, folder):
        handler = functools.partial(QuietHandler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    for name in ["host.html", "host.js", "host.css"]:
        shutil.copy(ROOT / "Examples" / name, folder / name)
    (folder / "sender.html").write_text(SENDER)
    s = StaticSite(folder)
    s.thread.start()
    yield s
    s.httpd.shutdown()


@pytest.fixture
def boards_server(tmp_path, site):
    s = RunningServer("--boards", str(ROOT / "Examples" / "boards"), "--allow-origin", site.origin,
                      "--embed-origin", site.origin, data_dir=tmp_path / "data").start()
    yield s
    s.stop()


@pytest.fixture
def host(engine, site, boards_server):
    driver = make_driver(1280, 900, engine=engine)
    driver.get(f"{site.origin}/host.html?server={boards_server.http}&debug=1")
    for board, item in (("#kitchen", "milk"), ("#garden", "mow")):
        wait_for(lambda: item in (scene_cells(driver, board) or {}))
    yield driver
    driver.quit()


def host_log(driver, source=None, kinds=None):
    log = driver.execute_script("return window.hostLog")
    return [e for e in log if (source is None or e["source"] == source) and (kinds is None or e["type"] in kinds)]


def items(server, board):
    return server.board(board)["order"][0]["items"]


GESTURES = ("liftboard-lift", "liftboard-move", "liftboard-drop", "liftboard-cancel", "liftboard-commit")


def drag(driver, board, item, below):
    start = cell_center(driver, item, board)
    long_press_drag(driver, start, (start[0], cell_center(driver, below, board)[1] + 10), kind="mouse")


@THREE
def test_each_element_drags_and_reports_its_own_events_and_order(host, boards_server):
    drag(host, "#kitchen", "milk", "eggs")
    wait_for(lambda: items(boards_server, "kitchen")[:2] == ["eggs", "milk"])
    wait_for(lambda: host_log(host, "kitchen", ["liftboard-commit"]))
    drop = host_log(host, "kitchen", ["liftboard-drop"])
    assert [e["detail"] for e in drop] == [{"id": "milk", "from": {"section": "todo", "index": 0},
                                            "to": {"section": "todo", "index": 1}, "pointer": drop[0]["detail"]["pointer"]}]
    assert host_log(host, "kitchen", ["liftboard-lift"])[0]["detail"]["id"] == "milk"
    commit = host_log(host, "kitchen", ["liftboard-commit"])[0]["detail"]
    assert commit["own"] is True and commit["version"] == 1 and commit["change"]["id"] == "milk"
    assert commit["order"] == {"todo": ["eggs", "milk", "bread", "dishes"], "done": []}
    assert host.execute_script("return document.getElementById('kitchen').order()") == commit["order"]
    assert host_log(host, "garden", GESTURES) == []

    # The other element, in swap mode: its drag is its own too.
    drag(host, "#garden", "mow", "hedge")
    wait_for(lambda: items(boards_server, "garden")[:2] == ["hedge", "mow"])
    wait_for(lambda: host_log(host, "garden", ["liftboard-commit"]))
    assert host_log(host, "garden", ["liftboard-drop"])[0]["detail"]["id"] == "mow"
    assert host_log(host, "garden", ["liftboard-commit"])[0]["detail"]["own"] is True
    # The kitchen element fired nothing for the garden's drag.
    assert [e["type"] for e in host_log(host, "kitchen", ["liftboard-drop", "liftboard-commit"])] == ["liftboard-drop", "liftboard-commit"]


@BOTH
def test_undo_reverts_the_elements_last_drop_and_order_follows(host, boards_server):
    drag(host, "#kitchen", "milk", "eggs")
    wait_for(lambda: items(boards_server, "kitchen")[:2] == ["eggs", "milk"])
    wait_for(lambda: host.execute_script("return document.getElementById('kitchen').order().todo[0]") == "eggs")
    host.find_element("css selector", "[data-undo=kitchen]").click()
    wait_for(lambda: items(boards_server, "kitchen")[:2] == ["milk", "eggs"])
    wait_for(lambda: host.execute_script("return document.getElementById('kitchen').order()")
             == {"todo": ["milk", "eggs", "bread", "dishes"], "done": []})
    commits = [e["detail"] for e in host_log(host, "kitchen", ["liftboard-commit"])]
    assert [c["version"] for c in commits] == [1, 2] and all(c["own"] for c in commits)
    # A second undo has nothing left to undo: the server says so, as an event.
    host.execute_script("document.getElementById('kitchen').undo()")
    wait_for(lambda: host_log(host, "kitchen", ["liftboard-error"]))
    assert host_log(host, "kitchen", ["liftboard-error"])[0]["detail"]["code"] == "cannot_undo"


def test_a_new_board_attribute_reconnects_and_others_commits_arrive_as_not_own(host, boards_server):
    flags = host.execute_script("""
        const el = document.getElementById('kitchen');
        const seen = [];
        document.addEventListener('liftboard-connection', (ev) => seen.push([ev.bubbles, ev.composed, ev.detail.state]));
        el.setAttribute('board', 'garden');  // changing the board reconnects
        return new Promise((done) => {
          const check = () => seen.some((s) => s[2] === 'open') ? done(seen) : setTimeout(check, 20);
          check();
        });""")
    assert flags[0] == [True, True, "closed"] and [True, True, "open"] in flags
    wait_for(lambda: "mow" in (scene_cells(host, "#kitchen") or {}))
    assert host.execute_script("return document.getElementById('kitchen').order()")["todo"][0] == "mow"
    # Both elements now show the garden: a drag in one is a commit, not its own, in the other.
    drag(host, "#garden", "mow", "hedge")
    wait_for(lambda: host_log(host, "kitchen", ["liftboard-commit"]))
    commit = host_log(host, "kitchen", ["liftboard-commit"])[0]["detail"]
    assert commit["own"] is False and commit["change"]["swap"] == ["mow", "hedge"]
    assert host_log(host, "kitchen", ["liftboard-drop", "liftboard-lift"]) == []
    wait_for(lambda: host.execute_script("return document.getElementById('kitchen').order()")["todo"][:2] == ["hedge", "mow"])
    # focusItem walks the keyboard focus to the item.
    assert host.execute_script("return document.getElementById('kitchen').focusItem('roses')") is True
    assert board_state(host, "st.scene.focus", "#kitchen") == "roses"


def in_iframe(driver, frame_id, script):
    driver.switch_to.frame(driver.find_element("id", frame_id))
    try:
        return driver.execute_script(script)
    finally:
        driver.switch_to.default_content()


def iframe_cells(driver):
    return in_iframe(driver, "errands", """
        const s = window.__liftboard && window.__liftboard.scene;
        if (!s) return null;
        const out = {};
        for (const c of s.cells.values()) out[c.id] = c.frame.to;
        return out;""")


@BOTH
def test_the_iframe_posts_its_events_to_the_embed_origin_and_obeys_only_it(host, boards_server, site):
    wait_for(lambda: len(iframe_cells(host) or {}) >= 3)
    assert in_iframe(host, "errands", "return window.__embed.origin") == site.origin
    # The iframe's height follows its content.
    wait_for(lambda: host_log(host, "errands", ["resize"]))
    x0, y0 = host.execute_script("const r = document.getElementById('errands').getBoundingClientRect(); return [r.left + 1, r.top + 1];")
    cells = iframe_cells(host)
    center = lambda c: (x0 + c["x"] + c["w"] / 2, y0 + c["y"] + c["h"] / 2)
    start, below = center(cells["post"]), center(cells["bank"])
    long_press_drag(host, start, (start[0], below[1] + 10), kind="mouse")
    wait_for(lambda: items(boards_server, "errands")[:2] == ["bank", "post"])
    wait_for(lambda: host_log(host, "errands", ["liftboard-commit"]))
    assert host_log(host, "errands", ["liftboard-drop"])[0]["detail"]["id"] == "post"
    assert host_log(host, "errands", ["liftboard-commit"])[0]["detail"]["own"] is True

    # Another origin's frame on the same page posts an undo: the iframe ignores it.
    host.execute_script("""
        const f = document.createElement('iframe');
        f.id = 'sender'; f.src = arguments[0];
        document.body.append(f);""", f"http://localhost:{site.port}/sender.html")
    sent = in_iframe(host, "errands", "return window.__liftboard.sent")
    host.switch_to.frame(host.find_element("id", "sender"))
    wait_for(lambda: host.execute_script("return document.readyState") == "complete")
    host.execute_script("parent.frames[0].postMessage({type: 'undo'}, '*');")
    host.switch_to.default_content()
    wait_for(lambda: in_iframe(host, "errands", "return window.__embed.ignored") >= 1)
    assert in_iframe(host, "errands", "return window.__liftboard.sent") == sent  # no undo went out
    assert in_iframe(host, "errands", "return window.__embed.obeyed") == 0

    # The embed origin's undo is obeyed.
    host.find_element("css selector", "[data-undo=errands]").click()
    wait_for(lambda: items(boards_server, "errands")[:2] == ["post", "bank"])
    assert in_iframe(host, "errands", "return window.__embed.obeyed") == 1
    # So is its focus: the keyboard focus goes to the item.
    host.execute_script("document.getElementById('errands').contentWindow.postMessage({type: 'focus', id: 'keys'}, arguments[0])",
                        boards_server.http)
    wait_for(lambda: in_iframe(host, "errands", "return window.__liftboard.scene.focus") == "keys")


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_host_html_served_by_liftboard_serve_itself_shows_two_elements_and_an_iframe(tmp_path, browser):
    """The same page from the Liftboard server's own origin (Public/ and the example in one
    folder): no CORS involved, the server's own CSP in force."""
    site = tmp_path / "public"
    shutil.copytree(ROOT / "Public", site)
    for name in ["host.html", "host.js", "host.css"]:
        shutil.copy(ROOT / "Examples" / name, site / name)
    server = RunningServer("--public", str(site), "--boards", str(ROOT / "Examples" / "boards"), data_dir=tmp_path / "data")
    server.port = free_port()  # the embed origin names the port, so it is chosen first
    server.args += ["--embed-origin", f"http://127.0.0.1:{server.port}"]
    server.start()
    try:
        browser.set_window_size(1280, 900)
        browser.get(server.http + "/host.html?debug=1")
        for board, item in (("#kitchen", "milk"), ("#garden", "mow")):
            wait_for(lambda: item in (scene_cells(browser, board) or {}))
        wait_for(lambda: [e for e in host_log(browser, "errands", ["liftboard-connection"]) if e["detail"]["state"] == "open"])
        drag(browser, "#kitchen", "milk", "eggs")
        wait_for(lambda: host_log(browser, "kitchen", ["liftboard-commit"]))
        assert host_log(browser, "kitchen", ["liftboard-drop"])[0]["detail"]["id"] == "milk"
        assert host_log(browser, "kitchen", ["liftboard-commit"])[0]["detail"]["own"] is True
        assert browser.execute_script("return document.getElementById('kitchen').order()")["todo"][:2] == ["eggs", "milk"]
        assert host_log(browser, "garden", GESTURES) == [] and host_log(browser, "errands", GESTURES) == []
        severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert severe == []
    finally:
        server.stop()
