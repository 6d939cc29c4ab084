"""Examples/auth as docs/embedding.md and its README run it (their commands, with free ports for
8000 and 8080), against a real `liftboard serve --auth-keys`, in Chromium: a person signs in,
the page's `<liftboard-board auth-endpoint="/token">` gets a token from the app, connects and
draws the board with no Content-Security-Policy violation, and so does the iframe of `/frame`
given its token by postMessage; no token reaches the server's log; signed out, the element says `auth_endpoint_failed`. And docs/kiosk.md's operator token opens the kiosk page."""
import shlex
import socket

import pytest

from auth_helpers import HostApp, sign_in
from conftest import BINARY, ROOT
from liftboard_server import RunningServer
from pages import scene_cells, wait_for

DOC = (ROOT / "docs" / "embedding.md").read_text()
README = (ROOT / "Examples" / "auth" / "README.md").read_text()
KIOSK = (ROOT / "docs" / "kiosk.md").read_text()
LISTENER = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push({directive: e.violatedDirective, blocked: e.blockedURI}));
window.__events = [];
for (const t of ['connection', 'error'])
  document.addEventListener('liftboard-' + t, (e) => window.__events.push({type: t, detail: e.detail}));
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recipe(doc, after):
    """The shell lines of the first ```sh block after `after` (comments dropped), and the URL its
    `# open` comment names."""
    at = doc.index(after)
    start = doc.index("```sh\n", at) + len("```sh\n")
    body = doc[start:doc.index("```", start)]
    lines = [" ".join(l.split()) for l in body.replace("\\\n", " ").splitlines() if l.strip() and not l.strip().startswith("#")]
    url = next((l.split("# open ", 1)[1].split()[0] for l in body.splitlines() if "# open " in l), None)
    return lines, url


def args_of(line, ports, cwd):
    """A recipe line's words after the program, ports replaced, repository paths made absolute."""
    out = []
    for w in shlex.split(line)[1:]:
        for old, new in ports.items():
            w = w.replace(f":{old}", f":{new}")
            w = str(new) if w == str(old) else w
        out.append(str(ROOT / w) if w.startswith("Examples/") else w)
    return out


@pytest.fixture
def driver(browser):
    browser.set_window_size(900, 900)
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LISTENER})
    browser.get_log("browser")
    return browser


def test_the_example_runs_as_written_and_its_page_gets_a_token_and_connects(tmp_path, driver):
    import subprocess
    lines, url = recipe(DOC, "### The example: `Examples/auth`")
    assert (lines, url) == recipe(README, "## Run it"), "the README and docs/embedding.md run the example alike"
    keygen, serve, app = lines
    assert keygen.startswith(".build/debug/liftboard token keygen") and serve.startswith(".build/debug/liftboard serve")
    assert app.startswith("python3 Examples/auth/host.py")
    ports = {8000: free_port(), 8080: free_port()}
    r = subprocess.run([str(BINARY), *args_of(keygen, ports, tmp_path)], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    server = RunningServer(*[str(tmp_path / w) if (tmp_path / w).exists() else w for w in args_of(serve, ports, tmp_path)[1:]],
                           data_dir=tmp_path / "data")
    server.port = ports[8080]
    host = None
    try:
        server.start()
        host = HostApp(*args_of(app, ports, tmp_path)[1:], cwd=tmp_path)
        assert host.url == f"http://127.0.0.1:{ports[8000]}/"
        sign_in(driver, host, "bo")
        wait_for(lambda: (scene_cells(driver, "#board") or {}).get("milk"), what="the kitchen board drawn with Bo's token")
        assert driver.execute_script("return document.getElementById('board').dataset.connection") == "open"
        assert host.token_requests() == 1
        assert driver.execute_script("return window.__csp") == []
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
        # /frame: the same board in Liftboard's iframe, its token passed down by postMessage.
        driver.get(host.url + "frame")
        frame = wait_for(lambda: driver.find_elements("id", "frame"), what="the frame page")[0]
        wait_for(lambda: frame.get_attribute("src"), what="the iframe's src")
        driver.switch_to.frame(frame)
        try:
            wait_for(lambda: (scene_cells(driver, "#board") or {}).get("milk"), what="the kitchen board drawn in the iframe")
            assert driver.execute_script("return window.__csp") == []
        finally:
            driver.switch_to.default_content()
        assert driver.execute_script("return window.__csp") == []
        assert host.token_requests() == 2
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
        assert not any("eyJ" in l for l in server.lines), "a token in the server's log"
        driver.get(host.url)
        wait_for(lambda: (scene_cells(driver, "#board") or {}).get("milk"), what="the element's page again")
        # Signed out (the browser lost its session): the next token is refused by the app; the
        # element says so and does not connect.
        driver.delete_all_cookies()
        driver.execute_script("document.getElementById('board').setAttribute('board', 'garden')")
        error = wait_for(lambda: [e for e in driver.execute_script("return window.__events") if e["type"] == "error"],
                         what="liftboard-error once signed out")[0]["detail"]
        assert error["code"] == "auth_endpoint_failed" and "401" in error["message"], error
        assert host.token_requests() == 3 and any(l.startswith("host POST /token 401") for l in host.lines)
        assert driver.execute_script("return document.getElementById('board').dataset.connection") == "closed"
    finally:
        if host:
            host.stop()
        server.stop()


def test_the_kiosk_operators_token_opens_the_kiosk_page(tmp_path, driver, liftboard):
    import subprocess
    run = lambda *a: subprocess.run([liftboard, *a], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert run("token", "keygen", "--alg", "HS256", "--kid", "app-1", "--signing", "signer.jwks.json",
               "--verifying", "server.jwks.json").returncode == 0
    at = KIOSK.index("**An operator mints a long-lived token**")
    body = KIOSK[KIOSK.index("```sh\n", at) + 6:KIOSK.index("```", KIOSK.index("```sh\n", at) + 6)]
    mint, browser = [l for l in body.splitlines() if l.strip()]
    words = shlex.split(mint)
    r = run(*words[1:words.index(">")])
    assert r.returncode == 0, r.stderr
    token = r.stdout.strip()
    server = RunningServer("--boards", str(ROOT / "Examples" / "boards"), "--auth-keys", str(tmp_path / "server.jwks.json"),
                           data_dir=tmp_path / "data").start()
    try:
        kiosk_url = browser.split('--app="', 1)[1].rstrip('"').replace("$(cat wall.token)", token)
        driver.get(kiosk_url.replace("http://127.0.0.1:8080", server.http) + "&debug=1")
        wait_for(lambda: (scene_cells(driver) or {}).get("milk"), what="the kiosk page drawn with the operator's token")
        assert driver.execute_script("return document.body.classList.contains('kiosk')")
        assert driver.execute_script("return window.__liftboard.open") is True
    finally:
        server.stop()
