"""What the real `liftboard serve` sends other sites (issue 26): the iframe mode's framing
(`/embed`, `--embed-origin`) and CORS on the element's modules (`--allow-origin`)."""
import json
import re
import subprocess

import pytest

from conftest import BINARY, ROOT
from liftboard_server import RunningServer

APP = "https://app.example"


@pytest.fixture
def server(tmp_path):
    s = RunningServer("--allow-origin", APP, "--embed-origin", APP, data_dir=tmp_path / "data").start()
    yield s
    s.stop()


def modules(entry="liftboard.js"):
    """`entry` and every module it imports, transitively (relative `./x.js` imports)."""
    seen, todo = set(), [entry]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += re.findall(r'from "\./([\w.-]+\.js)"', (ROOT / "Public" / name).read_text())
    return seen


def test_embed_is_framed_only_by_the_embed_origin_and_names_it(server):
    status, headers, body = server.get("/embed?board=demo")
    assert status == 200 and b"<liftboard-board" in body
    assert headers["content-security-policy"].endswith(f"frame-ancestors {APP}")
    assert "x-frame-options" not in {k.lower() for k in headers}
    status, _, body = server.get("/embed/config")
    assert status == 200 and json.loads(body) == {"origin": APP}
    # The rest of the site still may not be framed.
    _, headers, _ = server.get("/")
    assert headers["content-security-policy"].endswith("frame-ancestors 'none'") and headers["x-frame-options"] == "DENY"


def test_without_an_embed_origin_nobody_may_frame_embed_and_it_posts_nowhere(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data").start()
    try:
        _, headers, _ = s.get("/embed?board=demo")
        assert headers["content-security-policy"].endswith("frame-ancestors 'none'") and headers["x-frame-options"] == "DENY"
        assert s.get("/embed/config")[0] == 404
    finally:
        s.stop()


def test_the_element_and_every_module_it_imports_are_readable_by_allowed_origins_only(server):
    names = modules()
    assert {"liftboard.js", "client.js", "dispatch.js", "scene.js", "predict.js", "renderer.js", "easing.js"} <= names
    for name in sorted(names):
        status, headers, _ = server.get("/" + name, headers={"Origin": APP})
        assert status == 200 and headers.get("access-control-allow-origin") == APP, name
        assert "Origin" in headers.get("vary", ""), name
        _, headers, _ = server.get("/" + name, headers={"Origin": "https://other.example"})
        assert "access-control-allow-origin" not in {k.lower() for k in headers}, name
        _, headers, _ = server.get("/" + name)
        assert "access-control-allow-origin" not in {k.lower() for k in headers}, name


@pytest.mark.parametrize("origin", ["app.example", "https://app.example/", "https://app.example/embed",
                                    "javascript:alert(1)", "https://a.example; script-src *", "https://"])
def test_embed_origin_must_be_an_origin(origin):
    out = subprocess.run([str(BINARY), "serve", "--port", "0", "--embed-origin", origin], capture_output=True, text=True, timeout=10)
    assert out.returncode == 64 and "--embed-origin must be an origin" in out.stderr, out
