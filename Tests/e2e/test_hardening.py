"""Hostile and unlucky clients against the real server: descriptor exhaustion, CONNECT, sessions
that never say hello, tokens and full servers at the upgrade, bad upgrades, slow readers,
recording budgets, Host and Origin checks. Each test stands for one failure of issue 11."""
import asyncio
import base64
import json
import os
import socket
import statistics
import struct
import subprocess
import threading
import time
import urllib.request

import pytest
import websockets

from conftest import BINARY
from liftboard_server import HELLO, RunningServer, recv_until, wait_for


class TimedServer(RunningServer):
    """A RunningServer that remembers when each stderr line arrived, and may run under a
    file descriptor limit."""

    def __init__(self, *args, data_dir, nofile=None):
        super().__init__(*args, data_dir=data_dir)
        if nofile:
            # A number is soft and hard limit both; "SOFT:HARD" sets them apart.
            spec = nofile if isinstance(nofile, str) else f"{nofile}:{nofile}"
            self.args = ["prlimit", f"--nofile={spec}"] + self.args
        self.times = []

    def _read(self):
        for line in self.proc.stderr:
            self.times.append((time.monotonic(), line))
            self.lines.append(line)

    def cpu_seconds(self):
        fields = open(f"/proc/{self.proc.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture
def serve(tmp_path):
    servers = []

    def start(*args, nofile=None):
        s = TimedServer(*args, data_dir=tmp_path / f"data{len(servers)}", nofile=nofile).start()
        servers.append(s)
        return s
    yield start
    for s in servers:
        s.stop()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


def raw_request(port, data, timeout=3.0, host="127.0.0.1"):
    """Sends bytes, returns (seconds until the server closed or the timeout, what it answered)."""
    with socket.create_connection((host, port)) as s:
        s.settimeout(timeout)
        start = time.monotonic()
        s.sendall(data)
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        except (socket.timeout, ConnectionResetError):
            pass
        return time.monotonic() - start, out


def upgrade_request(port, path="/ws", version="13", extra=""):
    key = base64.b64encode(os.urandom(16)).decode()
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: {version}\r\n{extra}\r\n").encode()


def status_of(answer):
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else None


def get(port, path, headers=None, host="127.0.0.1"):
    req = urllib.request.Request(f"http://{host}:{port}{path}", headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


# 1. File descriptors

def test_past_the_descriptor_limit_new_connections_get_503_at_once_without_spinning(serve):
    s = serve(nofile=256)
    assert any("limits fds=256" in line for line in s.lines)
    idle = []
    try:
        for _ in range(300):
            idle.append(socket.create_connection(("127.0.0.1", s.port)))
        time.sleep(0.5)
        cpu0 = s.cpu_seconds()
        time.sleep(2)
        busy = s.cpu_seconds() - cpu0
        answers = []
        for c in idle:
            c.setblocking(False)
            try:
                answers.append(c.recv(200))
            except BlockingIOError:
                answers.append(None)
        refused = [a for a in answers if a is not None]
        assert len(refused) >= 100 and all(a.startswith(b"HTTP/1.1 503 ") for a in refused), answers[-3:]
        # A newcomer is told at once rather than left waiting.
        took, answer = raw_request(s.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert status_of(answer) == 503 and took < 1
        assert busy < 0.5, f"{busy} s of CPU in 2 s with every descriptor taken"
    finally:
        for c in idle:
            c.close()
    wait_for(lambda: get(s.port, "/healthz")[0] == 200, what="/healthz to answer 200 once the connections closed")
    s.mark_log()  # every line written before is read: what is not in `lines` was not written
    assert not any("errno 24" in line for line in s.lines)
    assert len(s.lines) < 100, f"{len(s.lines)} log lines for 300 connections"
    assert any("similar lines left out" in line for line in s.lines)


def test_the_server_holds_the_descriptors_its_budget_needs_not_the_hard_limit(serve):
    """libwebsockets (Debian's _DEBUG build) walks a table the size of the soft limit on every
    close: the server raises a low soft limit, and lowers a high one, to what its sessions, as
    many other connections and the reserve need (100 + 200 + 64), within the hard limit."""
    for soft in (512, 4096):
        s = serve("--max-sessions", "100", nofile=f"{soft}:4096")
        assert any("limits fds=364 max-sessions=100 " in line for line in s.lines), s.lines
        row = next(line for line in open(f"/proc/{s.proc.pid}/limits") if line.startswith("Max open files"))
        assert row.split()[3:5] == ["364", "4096"], row
        assert get(s.port, "/healthz")[0] == 200
        _, answer = raw_request(s.port, upgrade_request(s.port), timeout=0.5)
        assert status_of(answer) == 101, answer
    # Past the hard limit it does not go: asked for more than fits, the budget says so.
    s = serve(nofile="256:300")
    assert any("limits fds=300 " in line for line in s.lines), s.lines


def test_max_sessions_that_do_not_fit_the_descriptor_limit_exit_2(tmp_path):
    out = subprocess.run(["prlimit", "--nofile=256:256", str(BINARY), "serve", "--port", "0", "--data", str(tmp_path / "d"),
                          "--max-sessions", "1000"], capture_output=True, text=True, timeout=20)
    assert out.returncode == 2 and "does not fit in 256 file descriptors" in out.stderr, out


# 2. Deadlines until a connection is useful

def test_connect_is_answered_405_and_closed_at_once(serve):
    s = serve()
    took, answer = raw_request(s.port, b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", timeout=5)
    assert status_of(answer) == 405 and took < 1, (took, answer)


def test_a_request_that_never_completes_its_headers_is_closed_by_the_deadline(serve):
    s = serve()
    with socket.create_connection(("127.0.0.1", s.port)) as c:
        start = time.monotonic()
        c.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        c.settimeout(15)
        closed = False
        try:
            for _ in range(30):
                c.sendall(b"X-Slow: 1\r\n")
                time.sleep(0.5)
        except (BrokenPipeError, ConnectionResetError):
            closed = True
        assert closed and time.monotonic() - start < 12


def test_a_websocket_that_never_says_hello_is_closed_with_1008_though_it_answers_pings(serve):
    s = serve("--hello-timeout", "1")

    async def go():
        async with websockets.connect(f"ws://127.0.0.1:{s.port}/ws", subprotocols=["liftboard.v1"], ping_interval=0.2) as ws:
            start = time.monotonic()
            msgs = []
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    msgs.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
            assert [m["code"] for m in msgs] == ["no_hello"]
            assert closed.value.rcvd.code == 1008 and time.monotonic() - start < 2.5
    run(go())
    assert get(s.port, "/healthz")[1].count(b'"sessions":0') == 1


def test_upgrades_without_the_token_get_401_and_never_take_a_session(serve):
    s = serve("--token", "right", "--max-sessions", "5")

    async def go():
        for _ in range(5):
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(f"ws://127.0.0.1:{s.port}/ws", subprotocols=["liftboard.v1"])
            assert refused.value.response.status_code == 401
        async with websockets.connect(f"ws://127.0.0.1:{s.port}/ws?token=right", subprotocols=["liftboard.v1"]) as ws:
            await ws.send(json.dumps(HELLO))
            assert (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
    run(go())


def test_a_full_server_answers_the_upgrade_with_503(serve):
    s = serve("--max-sessions", "2")

    async def go():
        url = f"ws://127.0.0.1:{s.port}/ws"
        async with websockets.connect(url, subprotocols=["liftboard.v1"]), websockets.connect(url, subprotocols=["liftboard.v1"]):
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(url, subprotocols=["liftboard.v1"])
            assert refused.value.response.status_code == 503
        async with websockets.connect(url, subprotocols=["liftboard.v1"]) as ws:
            await ws.send(json.dumps(HELLO))
            assert (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
    run(go())


# 6. Protocol hygiene at the upgrade

def test_an_unknown_websocket_version_gets_426_naming_version_13(serve):
    s = serve()
    _, answer = raw_request(s.port, upgrade_request(s.port, version="99"), timeout=1)
    assert status_of(answer) == 426 and b"sec-websocket-version: 13\r\n" in answer.lower()


def test_an_h2c_upgrade_gets_400(serve):
    s = serve()
    _, answer = raw_request(s.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                                    b"HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n", timeout=1)
    assert status_of(answer) == 400, answer


def test_a_websocket_on_another_path_gets_404(serve):
    s = serve()
    _, answer = raw_request(s.port, upgrade_request(s.port, path="/other"), timeout=1)
    assert status_of(answer) == 404


# 3. Slow readers

def masked_frame(obj):
    data = json.dumps(obj).encode()
    mask = os.urandom(4)
    n = len(data)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def slow_reader(port, seconds, stats):
    """A client with a tiny receive buffer that never reads: hello, then resizes (each answered
    by a whole layout) at 800 a second, under the rate limit."""
    c = socket.socket()
    c.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    c.connect(("127.0.0.1", port))
    c.sendall(upgrade_request(port))
    head = b""
    while b"\r\n\r\n" not in head:
        head += c.recv(1)
    c.sendall(masked_frame(dict(HELLO)))
    c.setblocking(False)
    start = time.monotonic()
    sent = 0
    while time.monotonic() - start < seconds:
        try:
            c.send(masked_frame({"t": "resize", "w": 300 + sent % 100, "h": 800, "dpr": 1, "ms": 0}))
            sent += 1
        except BlockingIOError:
            pass
        except OSError:
            stats["closed_after"] = time.monotonic() - start
            break
        time.sleep(1 / 800)
    stats["sent"] = sent
    c.close()


async def drag_latencies(ws, count, seq0, y0=60):
    """Seconds from each `move` to the frame that acknowledges it, during a held drag."""
    out = []
    for k in range(count):
        seq = seq0 + k
        t0 = time.monotonic()
        await ws.send(json.dumps({"t": "move", "p": 1, "x": 200, "y": y0 + (k % 40), "ms": 0, "seq": seq}))
        await recv_until(ws, lambda m: m["t"] == "frame" and m.get("ack", -1) >= seq, timeout=5)
        out.append(time.monotonic() - t0)
        await asyncio.sleep(0.01)
    return out


def test_a_slow_reader_is_closed_within_a_second_of_the_bound_and_others_keep_their_latency(serve):
    s = serve()

    async def go():
        async with websockets.connect(f"ws://127.0.0.1:{s.port}/ws", subprotocols=["liftboard.v1"]) as ws:
            await ws.send(json.dumps(HELLO))
            await recv_until(ws, lambda m: m["t"] == "layout")
            await ws.send(json.dumps({"t": "down", "p": 1, "x": 200, "y": 60, "ms": 0, "kind": "touch"}))
            assert any(m["t"] == "lift" for m in await recv_until(ws, lambda m: m["t"] == "lift", timeout=3))
            baseline = await drag_latencies(ws, 60, 1)
            stats = {}
            flood = threading.Thread(target=slow_reader, args=(s.port, 4, stats))
            flood.start()
            during = await drag_latencies(ws, 150, 1000)
            flood.join()
            return baseline, during, stats
    baseline, during, stats = run(go())
    tripped = [t for t, line in s.times if "slow reader" in line]
    assert tripped, "the slow reader was never detected"
    session = next(line for _, line in s.times if "slow reader" in line).split("session=")[1].split()[0]
    gone = [t for t, line in s.times if "disconnect" in line and f"session={session} " in line]
    assert gone and gone[0] - tripped[0] < 1.0, (tripped, gone)
    assert len(tripped) == 1, "the connection went on being served after the bound tripped"
    b, d = statistics.median(baseline), statistics.median(during)
    print(f"drag latency median: baseline {b * 1000:.2f} ms, with a slow reader {d * 1000:.2f} ms; "
          f"closed {gone[0] - tripped[0]:.3f} s after the bound; client sent {stats}")
    # Not a ratio of two medians (a loopback baseline of a fraction of a millisecond doubles
    # with any other process on a shared machine): the flood may add scheduling noise, never
    # the tens of milliseconds a server stuck behind the slow reader would.
    assert d <= b + 0.05, (b, d)


# 4. Recording budget

def test_a_recording_stops_with_a_marker_past_its_budget_and_drops_unknown_keys(serve, tmp_path):
    rec = tmp_path / "rec"
    s = serve("--record", str(rec), "--record-max-bytes", "20000")

    async def go():
        async with websockets.connect(f"ws://127.0.0.1:{s.port}/ws", subprotocols=["liftboard.v1"]) as ws:
            await ws.send(json.dumps(HELLO))
            await recv_until(ws, lambda m: m["t"] == "layout")
            for i in range(700):
                await ws.send(json.dumps({"t": "ping", "id": i, "ms": 0, "pad": "x" * 3000}))
            await recv_until(ws, lambda m: m["t"] == "pong" and m["id"] == 699, timeout=10)
    run(go())
    stream = (rec / "s1.jsonl").read_text()
    lines = stream.splitlines()
    assert len(stream.encode()) <= 20000 + 200
    assert lines[-1].startswith("# recording stopped: over --record-max-bytes")
    # The hello, then the inputs: the board's presence (issue 44: the session's own join) and the pings.
    first_ping = next(json.loads(l) for l in lines[1:] if json.loads(l)["t"] == "ping")
    assert "pad" not in stream and first_ping == {"t": "ping", "id": 0, "ms": first_ping["ms"]}
    out = subprocess.run([str(BINARY), "replay", "--board", str(rec / "s1.board.json"), str(rec / "s1.jsonl")],
                         capture_output=True, timeout=30)
    assert out.returncode == 0 and b'"t":"pong"' in out.stdout


# 5. Host, Origin and tokens

def test_a_foreign_host_is_refused_on_http_and_websocket_alike(serve):
    s = serve()
    for path in ["/", "/healthz", "/api/boards"]:
        assert get(s.port, path, headers={"Host": f"rebound.example:{s.port}"})[0] == 403, path
    _, answer = raw_request(s.port, upgrade_request(s.port).replace(f"Host: 127.0.0.1:{s.port}".encode(),
                                                                    f"Host: rebound.example:{s.port}\r\nOrigin: http://rebound.example:{s.port}".encode()), timeout=1)
    assert status_of(answer) == 403
    for host in [f"localhost:{s.port}", f"127.0.0.1:{s.port}", f"[::1]:{s.port}", "LOCALHOST"]:
        assert get(s.port, "/healthz", headers={"Host": host})[0] == 200, host


def test_allow_host_admits_a_named_host(serve):
    s = serve("--allow-host", "board.example")
    assert get(s.port, "/api/boards", headers={"Host": f"board.example:{s.port}"})[0] == 200
    _, answer = raw_request(s.port, upgrade_request(s.port).replace(f"Host: 127.0.0.1:{s.port}".encode(),
                                                                    f"Host: board.example:{s.port}\r\nOrigin: http://board.example:{s.port}".encode()), timeout=1)
    assert status_of(answer) == 101
    assert get(s.port, "/api/boards", headers={"Host": "other.example"})[0] == 403


def test_with_allow_origin_a_missing_or_empty_origin_is_refused(serve):
    s = serve("--allow-origin", "https://kiosk.example")
    for extra, expected in [("", 403), ("Origin: \r\n", 403), ("Origin: https://evil.example\r\n", 403),
                            ("Origin: https://kiosk.example\r\n", 101)]:
        _, answer = raw_request(s.port, upgrade_request(s.port, extra=extra), timeout=1)
        assert status_of(answer) == expected, extra


def test_a_4_kb_token_works_in_the_header_and_in_the_query(serve):
    token = base64.urlsafe_b64encode(os.urandom(3072)).decode()
    assert len(token) == 4096
    # `--token=…`: a random URL-safe token may start with "-", which as a separate argument
    # reads as an option (the flaky "Missing value for '--token'" of 1 run in 32).
    s = serve(f"--token={token}")
    assert get(s.port, "/api/boards")[0] == 401
    assert get(s.port, "/api/boards", headers={"Authorization": f"Bearer {token}"})[0] == 200
    assert get(s.port, f"/api/boards?token={token}")[0] == 200

    async def go():
        for kw in [dict(additional_headers={"Authorization": f"Bearer {token}"}), dict()]:
            url = f"ws://127.0.0.1:{s.port}/ws" + ("" if kw else f"?token={token}")
            async with websockets.connect(url, subprotocols=["liftboard.v1"], **kw) as ws:
                await ws.send(json.dumps(HELLO))
                assert (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
    run(go())


def test_headers_over_8_kb_are_closed_without_a_status_and_the_server_goes_on(serve):
    """A limitation of libwebsockets 4.1.6 (docs/limitations.md): no 431 is possible."""
    s = serve()
    took, answer = raw_request(s.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", timeout=3)
    assert answer == b"" and took < 1
    _, answer = raw_request(s.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 6000 + b"\r\n\r\n", timeout=1)
    assert status_of(answer) == 200
