"""docs/embedding.md's two ways of serving the host page, run as the doc writes them (its
commands, with free ports for 8000 and 8080), in Chromium: the three boards of
Examples/host.html load, and no document (the host page, the iframe) sees a
Content-Security-Policy violation. And what the doc says the server's CSP blocks is blocked: an
inline script on a page it serves, `/embed` framed by an origin that is not `--embed-origin`."""
import shlex
import socket
import subprocess
import sys

import pytest

from conftest import ROOT
from liftboard_server import RunningServer
from pages import scene_cells, wait_for

DOC = (ROOT / "docs" / "embedding.md").read_text()

# Installed before any script of every document of the tab (the iframe's too): what the
# document's CSP refused, as `securitypolicyviolation` events say it.
LISTENER = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(
  {directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile, line: e.lineNumber}));
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recipe(after):
    """The shell lines of the first ```sh block after `after`, comments dropped, and the URL
    its `# open` comment names."""
    at = DOC.index(after)
    start = DOC.index("```sh\n", at) + len("```sh\n")
    body = DOC[start:DOC.index("```", start)]
    joined = body.replace("\\\n", " ")  # a line continued with a backslash is one command
    lines = [" ".join(l.split()) for l in joined.splitlines() if l.strip() and not l.strip().startswith("#")]
    url = next(l.split("# open ", 1)[1].strip() for l in body.splitlines() if "# open " in l)
    return lines, url


def serve_args(line, ports, cwd):
    """`liftboard serve` arguments of a recipe's line, ports replaced, paths made absolute."""
    words = shlex.split(line)
    assert words[:2] == [".build/debug/liftboard", "serve"], line
    out = []
    for w in words[2:]:
        for old, new in ports.items():
            w = w.replace(f":{old}", f":{new}")
        out.append(str(cwd / w) if (cwd / w).exists() else w)
    return out


def with_ports(text, ports):
    for old, new in ports.items():
        text = text.replace(f":{old}", f":{new}").replace(f" {old}", f" {new}")
    return text


@pytest.fixture
def driver(browser):
    browser.set_window_size(1280, 900)
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LISTENER})
    browser.get_log("browser")  # what an earlier page logged is not this test's
    return browser


def violations(driver):
    """Every document's CSP violations: the host page's and the iframe's (whose listener must
    have been installed, or nothing would be seen there)."""
    top = driver.execute_script("return window.__csp")
    assert top is not None, "the violation listener is not in the host page"
    driver.switch_to.frame(driver.find_element("id", "errands"))
    try:
        inner = driver.execute_script("return window.__csp")
    finally:
        driver.switch_to.default_content()
    assert inner is not None, "the violation listener is not in the iframe"
    console = [e["message"] for e in driver.get_log("browser") if "Content Security Policy" in e["message"]]
    return top + inner + console


def loads_every_board(driver):
    for board, item in (("#kitchen", "milk"), ("#garden", "mow")):
        wait_for(lambda: item in (scene_cells(driver, board) or {}), what=f"{item} on {board}")
    wait_for(lambda: driver.execute_script(
        "return (window.hostLog || []).some((e) => e.source === 'errands' && e.type === 'resize')"),
        what="the iframe's first resize message")


def test_the_host_page_on_its_own_origin_as_the_doc_serves_it_loads_with_no_csp_violation(tmp_path, driver):
    lines, url = recipe("## Try it")
    assert lines[0] == "swift build" and lines[1].startswith(".build/debug/liftboard serve")
    assert lines[2].startswith("python3 -m http.server")
    ports = {8000: free_port(), 8080: free_port()}
    server = RunningServer(*serve_args(lines[1], ports, ROOT), data_dir=tmp_path / "data")
    server.port = ports[8080]
    words = shlex.split(with_ports(lines[2], ports))
    site = subprocess.Popen([sys.executable if words[0] == "python3" else words[0], *words[1:]], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        server.start()
        wait_for(lambda: _answers(ports[8000]), what="python3 -m http.server to listen")
        driver.get(with_ports(url, ports) + "&debug=1")
        loads_every_board(driver)
        assert violations(driver) == []
    finally:
        site.terminate()
        site.wait(5)
        server.stop()


def test_the_host_page_served_by_liftboard_itself_as_the_doc_serves_it_loads_with_no_csp_violation(tmp_path, driver):
    lines, url = recipe("The host page may also come from the Liftboard server itself")
    assert lines[0] == "swift build" and lines[1].startswith("mkdir site")
    for name in ("Public", "Examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    made = subprocess.run(["bash", "-euc", lines[1]], cwd=tmp_path, capture_output=True, text=True, timeout=30)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "site" / "host.js").exists() and (tmp_path / "site" / "liftboard.js").exists()
    # The server's CSP forbids inline scripts: the host page has none (its script is host.js).
    host = (tmp_path / "site" / "host.html").read_text()
    assert "<script>" not in host and "<script type=\"module\">" not in host and " onclick=" not in host
    # A control: the same server blocks an inline script, and the listener sees it.
    (tmp_path / "site" / "inline.html").write_text(
        "<!doctype html><title>inline</title><iframe id=errands src=/embed?board=errands></iframe>"
        "<script>window.ran = true;</script>")
    ports = {8080: free_port()}
    server = RunningServer(*serve_args(lines[2], ports, tmp_path), data_dir=tmp_path / "data")
    server.port = ports[8080]
    try:
        server.start()
        driver.get(with_ports(url, ports) + "?debug=1")
        loads_every_board(driver)
        assert violations(driver) == []

        driver.get(server.http + "/inline.html")
        wait_for(lambda: driver.execute_script("return window.__csp.length"), what="the inline script's violation")
        assert driver.execute_script("return window.ran") is None
        seen = violations(driver)
        assert any(isinstance(v, dict) and v["directive"].startswith("script-src") and v["blocked"] == "inline"
                   for v in seen), seen
    finally:
        server.stop()


def test_embed_framed_by_an_origin_that_is_not_the_embed_origin_is_refused(tmp_path, driver):
    """The doc: a page of any other origin that frames `/embed` gets a blank frame."""
    port = free_port()
    server = RunningServer("--boards", str(ROOT / "Examples" / "boards"), "--embed-origin", "http://127.0.0.1:9",
                           data_dir=tmp_path / "data")
    server.port = port
    site = tmp_path / "site"
    site.mkdir()
    (site / "frame.html").write_text(f"<!doctype html><iframe id=errands src='http://127.0.0.1:{port}/embed?board=errands'></iframe>")
    web_port = free_port()
    web = subprocess.Popen([sys.executable, "-m", "http.server", "-d", str(site), "--bind", "127.0.0.1", str(web_port)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        server.start()
        wait_for(lambda: _answers(web_port), what="the framing page's server")
        driver.get(f"http://127.0.0.1:{web_port}/frame.html")
        refused = wait_for(lambda: [e["message"] for e in driver.get_log("browser") if "frame-ancestors" in e["message"]],
                           what="the browser's refusal to frame /embed")
        assert "violates the following Content Security Policy directive" in refused[0], refused
        assert '"frame-ancestors http://127.0.0.1:9"' in refused[0] and "has been blocked" in refused[0], refused
    finally:
        web.terminate()
        web.wait(5)
        server.stop()


def _answers(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False
