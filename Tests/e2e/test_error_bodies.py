"""One error body for every HTTP error the server writes (issue 22): `{"error": {"code",
"message"}}`, `version` beside them where the error is about a board's version. Static files,
reads, writes, refused upgrades and connections refused before a request is read alike."""
import base64
import json
import os
import socket
import urllib.request

import pytest

from conftest import ADMIN
from liftboard_server import RunningServer


def error_of(body):
    """The error object of a body, checked to be the one shape."""
    doc = json.loads(body)
    assert set(doc) == {"error"}, doc
    err = doc["error"]
    assert isinstance(err, dict) and set(err) <= {"code", "message", "version"}, doc
    assert isinstance(err["code"], str) and err["code"] and isinstance(err["message"], str) and err["message"], doc
    return err


def request(server, method, path, body=None, headers=None):
    req = urllib.request.Request(server.http + path, method=method, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read()
    except urllib.error.HTTPError as e:
        return e.code, {k.lower(): v for k, v in e.headers.items()}, e.read()


def raw(port, data):
    """Sends bytes, returns everything the server wrote until it closed or went quiet."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.settimeout(3)
        s.sendall(data)
        out = b""
        try:
            while chunk := s.recv(65536):
                out += chunk
                head, _, rest = out.partition(b"\r\n\r\n")
                length = [int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
                if length and len(rest) >= length[0]:
                    break
        except (socket.timeout, ConnectionResetError):
            pass
        return out


def status_and_body(answer):
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), head.decode(), body


def upgrade(port, path="/ws", version="13", extra=""):
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: {version}\r\n{extra}\r\n").encode()


@pytest.fixture
def server(tmp_path):
    s = RunningServer("--admin-token", ADMIN, "--token", "reader", data_dir=tmp_path / "data").start()
    yield s
    s.stop()


READ = {"Authorization": "Bearer reader"}
WRITE = {"Authorization": f"Bearer {ADMIN}"}


def test_static_files_reads_and_writes_answer_errors_in_the_one_shape(server):
    cases = [
        # (method, path, body, headers, status, code)
        ("GET", "/nothing-here.js", None, {}, 404, "not_found"),
        ("GET", "/%2e%2e/etc/passwd", None, {}, 404, "not_found"),
        ("POST", "/index.html", b"{}", {}, 405, "method_not_allowed"),
        ("GET", "/api/boards", None, {}, 401, "unauthorized"),
        ("GET", "/api/boards/nope", None, READ, 404, "board_not_found"),
        ("GET", "/api/boards/nope/history", None, READ, 404, "board_not_found"),
        ("GET", "/api/boards/demo/items", None, READ, 405, "method_not_allowed"),
        ("GET", "/api/nothing", None, READ, 404, "not_found"),
        ("GET", "/api/boards/demo/history?since=-1", None, READ, 400, "bad_request"),
        ("GET", "/api/boards/demo/events?since=x", None, READ, 400, "bad_request"),
        ("POST", "/api/boards/demo/items", b"{}", READ, 401, "unauthorized"),
        ("POST", "/api/boards/demo/items", b'{"id": "x"}', WRITE, 400, "if_match_required"),
        ("POST", "/api/boards/demo/items", b'{"id": "x"}', {**WRITE, "If-Match": "7"}, 409, "version_mismatch"),
        ("PATCH", "/api/boards/demo/items", b"{}", {**WRITE, "If-Match": "0"}, 405, "method_not_allowed"),
        ("POST", "/api/boards/nope/items", b"{}", {**WRITE, "If-Match": "0"}, 404, "board_not_found"),
        ("POST", "/api/boards/demo/items", b"x" * ((1 << 20) + 1), {**WRITE, "If-Match": "0"}, 413, "too_large"),
    ]
    for method, path, body, headers, status, code in cases:
        got_status, got_headers, got_body = request(server, method, path, body, headers)
        assert got_status == status and got_headers["content-type"] == "application/json", (method, path, got_status, got_body)
        err = error_of(got_body)
        assert err["code"] == code, (method, path, err)
    _, headers, body = request(server, "POST", "/api/boards/demo/items", b'{"id": "x"}', {**WRITE, "If-Match": "7"})
    assert error_of(body)["version"] == 0 and headers["etag"] == '"0"'


def test_refused_upgrades_and_raw_refusals_answer_errors_in_the_one_shape(server):
    cases = [
        (upgrade(server.port, path="/elsewhere"), 404, "not_found"),
        (upgrade(server.port, version="8"), 426, "bad_upgrade"),
        (upgrade(server.port), 401, "unauthorized"),
        (upgrade(server.port, extra="Origin: http://evil.example\r\n").replace(b"Host: 127.0.0.1", b"Host: evil.example"),
         403, "forbidden_host"),
        (upgrade(server.port, extra="Origin: http://evil.example\r\nAuthorization: Bearer reader\r\n"), 403, "forbidden_origin"),
        (b"GET / HTTP/1.1\r\nHost: elsewhere.example\r\n\r\n", 403, "forbidden_host"),
        (b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 405, "method_not_allowed"),
    ]
    for data, status, code in cases:
        got, head, body = status_and_body(raw(server.port, data))
        assert got == status and "content-type: application/json" in head.lower(), (data, head)
        assert error_of(body)["code"] == code, (data, body)


def test_a_connection_past_the_descriptor_limit_gets_the_one_shape(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data")
    s.args = ["prlimit", "--nofile=256:256", *s.args]
    s.start()
    idle = []
    try:
        for _ in range(300):
            idle.append(socket.create_connection(("127.0.0.1", s.port)))
        got, head, body = status_and_body(raw(s.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        assert got == 503 and "retry-after: 1" in head.lower()
        assert error_of(body)["code"] == "unavailable"
    finally:
        for c in idle:
            c.close()
        s.stop()
