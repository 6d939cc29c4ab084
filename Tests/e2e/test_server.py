"""The real `liftboard serve` on a loopback port, driven by real HTTP and WebSocket clients."""
import asyncio
import json
import pathlib
import signal
import ssl
import subprocess
import time

import pytest
import websockets

from conftest import ROOT
from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until

# Demo board geometry at width 400: "To do" header 0-32; milk 32-88 (center 60); mum 89-185
# (96 tall, center 137); pinned 186-242; plants 243-299 ...
MILK_Y, MUM_MID = 60, 137


@pytest.fixture
def server(tmp_path):
    s = RunningServer("--echo", data_dir=tmp_path / "data").start()
    yield s
    s.stop()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def connect(server, **kw):
    return websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5, **kw)


def test_the_page_and_its_assets_are_served_with_the_right_types_and_headers(server):
    status, headers, body = server.get("/")
    assert status == 200 and headers["content-type"].startswith("text/html") and b"<" in body
    assert headers["x-content-type-options"] == "nosniff"
    assert "connect-src 'self' ws: wss:" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    for path in (p for p in (ROOT / "Public").rglob("*") if p.is_file()):
        rel = "/" + path.relative_to(ROOT / "Public").as_posix()
        status, headers, body = server.get(rel)
        assert status == 200 and body == path.read_bytes(), rel
        expected = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".html": "text/html",
                    ".json": "application/json", ".svg": "image/svg+xml", ".png": "image/png"}.get(path.suffix)
        if expected:
            assert headers["content-type"].startswith(expected), rel


@pytest.mark.parametrize("path", ["/../Package.swift", "/%2e%2e/Package.swift", "/..%2fPackage.swift",
                                  "/%2e%2e%2fPackage.swift", "/./../README.md", "/nope.html"])
def test_nothing_outside_public_is_ever_served(server, path):
    out = subprocess.run(["curl", "-s", "--path-as-is", "-o", "-", "-w", "\n%{http_code}", server.http + path],
                         capture_output=True, text=True, timeout=10).stdout
    body, code = out.rsplit("\n", 1)
    assert code == "404" and "swift-tools-version" not in body and "Liftboard" not in body


def test_health_and_the_boards_api(server):
    status, headers, body = server.get("/healthz")
    assert status == 200 and json.loads(body)["ok"] is True
    status, _, body = server.get("/api/boards")
    # The built-in boards: the demo, the kanban example (/?board=kanban) and the outline (/?board=outline).
    assert json.loads(body) == {"boards": [{"id": "demo", "version": 0}, {"id": "kanban", "version": 0},
                                           {"id": "outline", "version": 0}]}
    board = server.board()
    assert board["version"] == 0 and board["order"][0]["items"][0] == "milk"
    status, headers, body = server.get("/api/boards/nope")
    assert status == 404 and headers["content-type"] == "application/json" and json.loads(body)["error"]["code"] == "board_not_found"


def test_hello_gets_welcome_and_layout(server):
    async def go():
        async with connect(server) as ws:
            assert ws.subprotocol == "liftboard.v1"
            await ws.send(json.dumps(HELLO))
            msgs = await recv_until(ws, lambda m: m["t"] == "layout")
            assert [m["t"] for m in msgs] == ["welcome", "layout"]
            assert msgs[0]["board"] == "demo" and msgs[1]["cells"][0]["id"] == "milk"
    run(go())


def test_a_real_time_long_press_drag_commits_and_another_client_receives_it(server):
    async def go():
        async with connect(server) as a, connect(server) as b:
            for ws in (a, b):
                await ws.send(json.dumps(HELLO))
                await recv_until(ws, lambda m: m["t"] == "layout")
            await long_press_drag(a, 50, MILK_Y, MUM_MID + 5)
            got = await recv_until(a, lambda m: m["t"] == "commit")
            assert got[-1]["t"] == "commit" and got[-1]["version"] == 1
            assert got[-1]["order"][0]["items"][:2] == ["mum", "milk"]
            seen = await recv_until(b, lambda m: m["t"] == "commit")
            assert seen[-1]["t"] == "commit" and seen[-1]["by"] == got[-1]["by"]
            assert any(m["t"] == "frame" for m in seen)  # b's cells animate to the new order
    run(go())
    assert server.board()["order"][0]["items"][:2] == ["mum", "milk"]


def test_a_drag_in_flight_when_another_client_commits_still_drops_without_a_lost_update(server):
    async def go():
        async with connect(server) as a, connect(server) as b:
            for ws in (a, b):
                await ws.send(json.dumps(HELLO))
                await recv_until(ws, lambda m: m["t"] == "layout")
            # b lifts "plants" (center 271) and holds it
            await long_press_drag(b, 50, 271, 271, steps=1, release=False)
            # a moves milk below mum and commits v1
            await long_press_drag(a, 50, MILK_Y, MUM_MID + 5)
            assert (await recv_until(a, lambda m: m["t"] == "commit"))[-1]["version"] == 1
            # b drops plants past the "Doing" header (587-619, its midpoint at 603): Doing's first item
            for k in range(1, 20):
                await b.send(json.dumps({"t": "move", "p": 1, "x": 50, "y": 271 + k * 19, "ms": 0}))
                await asyncio.sleep(0.01)
            await b.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 271 + 19 * 19, "ms": 0}))
            got = await recv_until(b, lambda m: m["t"] == "commit" and m["version"] == 2)
            assert got[-1]["version"] == 2
            todo = got[-1]["order"][0]["items"]
            assert todo[:2] == ["mum", "milk"]  # a's commit survived b's
            assert "plants" not in todo and got[-1]["order"][1]["items"][0] == "plants"
    run(go())
    assert server.board()["version"] == 2


def test_a_connection_dropped_mid_drag_commits_nothing(server):
    async def go():
        ws = await connect(server)
        await ws.send(json.dumps(HELLO))
        await recv_until(ws, lambda m: m["t"] == "layout")
        await long_press_drag(ws, 50, MILK_Y, 400, release=False)
        ws.transport.abort()
    run(go())
    server.wait_for_line("mid-drag: nothing committed")

    # The proof: the next drop, by another session, is version 1 (a commit made by the closed
    # session would have taken it).
    async def after():
        async with connect(server) as b:
            await b.send(json.dumps(HELLO))
            await recv_until(b, lambda m: m["t"] == "layout")
            await long_press_drag(b, 50, MILK_Y, MUM_MID + 5)
            return (await recv_until(b, lambda m: m["t"] == "commit"))[-1]
    commit = run(after())
    assert commit["t"] == "commit" and commit["version"] == 1 and commit["order"][0]["items"][:2] == ["mum", "milk"], commit


def test_bad_input_gets_errors_and_the_server_keeps_serving_others(server):
    async def go():
        async with connect(server) as a, connect(server) as b:
            await a.send(json.dumps(HELLO))
            await recv_until(a, lambda m: m["t"] == "layout")
            for raw, code in [("{oops", "bad_json"), (json.dumps({"t": "zap", "ms": 1}), "unknown_type"),
                              (json.dumps({"t": "move", "p": 1, "x": float("1e300"), "y": 0, "ms": 1}), "bad_message"),
                              (json.dumps({"t": "advance", "ms": 1}), "bad_message")]:
                await a.send(raw)
                got = await recv_until(a, lambda m: m["t"] == "error")
                assert got[-1]["code"] == code, raw
            await a.send("x" * 70_000)
            got = await recv_until(a, lambda m: m["t"] == "error")
            assert got[-1]["code"] == "too_large"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(a.recv(), 3)
            assert closed.value.rcvd.code == 1009
            await b.send(json.dumps(HELLO))
            assert (await recv_until(b, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
    run(go())


def test_a_message_before_hello_and_an_unknown_board_close_the_socket(server):
    async def go():
        async with connect(server) as ws:
            await ws.send(json.dumps({"t": "ping", "id": 1, "ms": 0}))
            assert (await recv_until(ws, lambda m: True))[0]["code"] == "no_hello"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 3)
            assert closed.value.rcvd.code == 1008
        async with connect(server) as ws:
            await ws.send(json.dumps(dict(HELLO, board="nope")))
            assert (await recv_until(ws, lambda m: True))[0]["code"] == "no_board"
    run(go())


def upgrade_status(server, origin):
    """The status of a raw WebSocket upgrade request with this Origin (curl, as a browser would send it)."""
    headers = ["Connection: Upgrade", "Upgrade: websocket", "Sec-WebSocket-Version: 13",
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Protocol: liftboard.v1", f"Origin: {origin}"]
    args = ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "2"]
    for h in headers:
        args += ["-H", h]
    return subprocess.run(args + [server.http + "/ws"], capture_output=True, text=True, timeout=10).stdout


def test_a_foreign_origin_is_refused_and_the_same_host_is_allowed(server):
    assert upgrade_status(server, "http://evil.example") == "403"
    assert upgrade_status(server, f"http://127.0.0.1:{server.port}") == "101"

    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"], origin=f"http://127.0.0.1:{server.port}") as ws:
            await ws.send(json.dumps(HELLO))
            assert (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
    run(go())


def test_a_client_offering_permessage_deflate_does_not_get_it(server):
    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"], compression="deflate") as ws:
            assert "sec-websocket-extensions" not in {k.lower() for k in ws.response.headers.keys()}
    run(go())


def test_the_echo_protocol_echoes_text_and_binary(server):
    async def go():
        async with websockets.connect(server.http.replace("http", "ws") + "/echo", subprotocols=["liftboard.echo"],
                                      max_size=None) as ws:
            await ws.send("hello")
            assert await ws.recv() == "hello"
            await ws.send(b"\x00\x01" * 100_000)
            assert await ws.recv() == b"\x00\x01" * 100_000
    run(go())


def test_sigterm_exits_cleanly_and_closes_sessions_with_1001(server):
    async def go():
        async with connect(server) as ws:
            await ws.send(json.dumps(HELLO))
            await recv_until(ws, lambda m: m["t"] == "layout")
            server.proc.send_signal(signal.SIGTERM)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(100):  # what was queued before the close (the board's presence) comes first
                    await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd.code == 1001
    start = time.monotonic()
    run(go())
    assert server.proc.wait(5) == 0
    assert time.monotonic() - start < 4


async def commit_one_drag(url):
    """Hello, then a real-time drag of milk below mum: the messages up to the commit."""
    async with websockets.connect(url, subprotocols=["liftboard.v1"]) as ws:
        await ws.send(json.dumps(HELLO))
        await recv_until(ws, lambda m: m["t"] == "layout")
        await long_press_drag(ws, 50, MILK_Y, MUM_MID + 5)
        got = await recv_until(ws, lambda m: m["t"] == "commit")
        assert got[-1]["t"] == "commit"
        return got


def test_commits_survive_kill_9_and_restart(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data").start()
    try:
        order = run(commit_one_drag(s.ws))[-1]["order"]
        s.stop(sig=signal.SIGKILL)
        s.start()
        board = s.board()
        assert board["version"] == 1 and board["order"] == order
    finally:
        s.stop()


def test_wss_works_with_a_self_signed_certificate(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    s = RunningServer("--tls-cert", str(cert), "--tls-key", str(key), data_dir=tmp_path / "data", scheme="https").start()
    try:
        ctx = ssl.create_default_context(cafile=str(cert))
        status, _, body = s.get("/healthz", context=ctx)
        assert status == 200

        async def go():
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"], ssl=ctx) as ws:
                await ws.send(json.dumps(HELLO))
                assert (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
        run(go())
        plain = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", f"http://127.0.0.1:{s.port}/healthz"],
                               capture_output=True, text=True, timeout=10).stdout
        assert plain != "200"  # no plain text on the TLS port
    finally:
        s.stop()


def test_a_token_guards_the_api_and_the_websocket_but_not_the_page(tmp_path):
    s = RunningServer("--token", "s3cret", data_dir=tmp_path / "data").start()
    try:
        assert s.get("/")[0] == 200
        assert s.get("/api/boards")[0] == 401
        assert s.get("/api/boards", headers={"Authorization": "Bearer s3cret"})[0] == 200
        assert s.get("/api/boards?token=s3cret")[0] == 200

        async def go():
            # The token is checked at the upgrade: a refused client never holds a session.
            with pytest.raises(websockets.InvalidStatus) as refused:
                await websockets.connect(s.ws, subprotocols=["liftboard.v1"])
            assert refused.value.response.status_code == 401
            assert json.loads(refused.value.response.body)["error"]["code"] == "unauthorized"
            async with websockets.connect(s.ws + "?token=s3cret", subprotocols=["liftboard.v1"]) as ws:
                await ws.send(json.dumps(HELLO))
                assert (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
        run(go())
    finally:
        s.stop()


def replayed_commits(liftboard, rec, session):
    """The commits `liftboard replay` prints for a session recorded into `rec`."""
    out = subprocess.run([liftboard, "replay", "--board", str(rec / f"{session}.board.json"), str(rec / f"{session}.jsonl")],
                         capture_output=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return [json.loads(l) for l in out.stdout.decode().splitlines() if '"t":"commit"' in l]


def without_by(commits):
    """Commits without their author: a replay's session id is always `replay`."""
    return [{k: v for k, v in c.items() if k != "by"} for c in commits]


def test_a_recorded_session_replays_to_the_same_commits(tmp_path, liftboard):
    rec = tmp_path / "rec"
    s = RunningServer("--record", str(rec), data_dir=tmp_path / "data").start()
    try:
        live_commits = [m for m in run(commit_one_drag(s.ws)) if m["t"] == "commit"]
    finally:
        s.stop()
    streams = list(rec.glob("*.jsonl"))
    assert len(streams) == 1
    assert without_by(replayed_commits(liftboard, rec, streams[0].stem)) == without_by(live_commits)


def test_invalid_boards_and_bad_flags_fail_before_listening(tmp_path, liftboard):
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "b.json").write_text(json.dumps({"id": "x", "sections": [{"id": "s", "items": [{"id": ""}]}]}))
    r = subprocess.run([liftboard, "serve", "--port", "0", "--boards", str(boards), "--data", str(tmp_path / "d")],
                       capture_output=True, text=True, timeout=10)
    assert r.returncode == 2 and "sections[0].items[0].id" in r.stderr
    r = subprocess.run([liftboard, "serve", "--port", "99999"], capture_output=True, text=True, timeout=10)
    assert r.returncode == 64 and "--port" in r.stderr
    # The log level is one of four words, and the error names them.
    r = subprocess.run([liftboard, "serve", "--port", "0", "--log-level", "loud"], capture_output=True, text=True, timeout=10)
    assert r.returncode == 64 and "--log-level" in r.stderr and all(w in r.stderr for w in ("error", "warn", "info", "debug")), r.stderr
    r = subprocess.run([liftboard, "serve", "--port", "0", "--tls-cert", str(tmp_path / "none.pem"), "--tls-key", "x",
                        "--data", str(tmp_path / "d")], capture_output=True, text=True, timeout=10)
    assert r.returncode == 2 and "cannot read" in r.stderr


def test_a_flood_is_rate_limited_and_a_sustained_one_is_closed(server):
    async def go():
        async with connect(server) as ws:
            await ws.send(json.dumps(HELLO))
            await recv_until(ws, lambda m: m["t"] == "layout")
            ping = json.dumps({"t": "ping", "id": 1, "ms": 0})
            limited = False
            closed, closed_code = False, None
            start = time.monotonic()
            try:
                while time.monotonic() - start < 8:
                    for _ in range(200):
                        await ws.send(ping)
                    while True:
                        try:
                            m = json.loads(await asyncio.wait_for(ws.recv(), 0.001))
                        except asyncio.TimeoutError:
                            break
                        limited = limited or (m["t"] == "error" and m["code"] == "rate_limited")
                    await asyncio.sleep(0.05)
            except websockets.ConnectionClosed as e:
                # While the client is still flooding, the kernel may reset the socket before the
                # close frame is read; when it is read, it says 1008.
                closed, closed_code = True, e.rcvd.code if e.rcvd else None
            assert limited
            assert closed and closed_code in (1008, None)
    run(go())
    server.wait_for_line("rate limited")


def test_max_sessions_refuses_one_too_many(tmp_path):
    s = RunningServer("--max-sessions", "2", data_dir=tmp_path / "data").start()
    try:
        async def go():
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"]) as a, \
                       websockets.connect(s.ws, subprotocols=["liftboard.v1"]) as b:
                with pytest.raises((websockets.InvalidStatus, websockets.InvalidHandshake, ConnectionError, EOFError, OSError)):
                    async with websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=3):
                        pass
                await a.send(json.dumps(HELLO))
                assert (await recv_until(a, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
        run(go())
        s.wait_for_line("max sessions")
    finally:
        s.stop()


def test_a_recording_with_another_sessions_commit_replays_to_the_same_commits(tmp_path, liftboard):
    rec = tmp_path / "rec"
    s = RunningServer("--record", str(rec), data_dir=tmp_path / "data").start()
    try:
        async def go():
            async with connect(s) as a, connect(s) as b:
                await a.send(json.dumps(HELLO))
                welcome = (await recv_until(a, lambda m: m["t"] == "layout"))[0]
                await b.send(json.dumps(HELLO))
                await recv_until(b, lambda m: m["t"] == "layout")
                await long_press_drag(b, 50, MILK_Y, MUM_MID + 5)          # b commits v1
                got = await recv_until(a, lambda m: m["t"] == "commit")
                assert got[-1]["version"] == 1
                await long_press_drag(a, 50, 271, 271 + 19 * 19)           # a moves plants into Doing: v2
                got += await recv_until(a, lambda m: m["t"] == "commit" and m["version"] == 2)
                return welcome["session"], [m for m in got if m["t"] == "commit"]
        session, live = run(go())
    finally:
        s.stop()
    assert '"t":"external"' in (rec / f"{session}.jsonl").read_text()
    replayed = replayed_commits(liftboard, rec, session)
    assert without_by(replayed) == without_by(live)
    assert [c["version"] for c in replayed] == [1, 2]


def test_a_drop_by_a_session_that_asked_for_no_order_is_recorded_elsewhere_with_the_whole_order(tmp_path, liftboard):
    """The dropping session's commit carries its change only (its client asked for no order);
    another session's recording still holds the whole order in its `external` line, as the
    board has it at that version, and replays to what that session was sent."""
    rec = tmp_path / "rec"
    s = RunningServer("--record", str(rec), data_dir=tmp_path / "data").start()
    try:
        async def go():
            async with connect(s) as a, connect(s) as b:
                await a.send(json.dumps(HELLO))
                welcome = (await recv_until(a, lambda m: m["t"] == "layout"))[0]
                await b.send(json.dumps({**HELLO, "config": {**HELLO.get("config", {}), "commitOrder": "none"}}))
                await recv_until(b, lambda m: m["t"] == "layout")
                await long_press_drag(b, 50, MILK_Y, MUM_MID + 5)          # b commits v1
                own = await recv_until(b, lambda m: m["t"] == "commit")
                got = await recv_until(a, lambda m: m["t"] == "commit")
                return welcome["session"], own[-1], got[-1]
        session, own, live = run(go())
    finally:
        s.stop()
    assert "order" not in own and own["version"] == 1
    assert live["version"] == 1 and live["order"]
    externals = [json.loads(line) for line in (rec / f"{session}.jsonl").read_text().splitlines()
                 if line.startswith("{") and json.loads(line)["t"] == "external"]
    assert [e["commit"]["order"] for e in externals] == [live["order"]]
    assert without_by(replayed_commits(liftboard, rec, session)) == without_by([live])


# lws hands the server what a connection reads in chunks of at most `Server.rxBufferSize`
# (512 bytes since issue 28, to keep an idle watcher small): a message longer than that, whether
# it came as one WebSocket frame or several, must reach the session whole.

def test_a_hello_of_several_receive_chunks_in_one_frame_and_a_move_in_fragments_are_read_whole(server):
    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
            # Valid JSON, padded with whitespace to eleven chunks of 512 bytes.
            hello = json.dumps(HELLO).replace("{", "{" + " " * 6_000, 1)
            assert len(hello) > 11 * 512
            await ws.send(hello)
            layout = (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]
            assert layout["t"] == "layout"
            # A touch going down on the first item, sent as three WebSocket fragments of one
            # text message: held, it lifts the item (the server's long-press timer).
            down = json.dumps({"t": "down", "p": 1, "x": 50, "y": 60, "ms": 0, "kind": "touch"}).replace("{", "{" + " " * 1_200, 1)
            third = len(down) // 3
            await ws.send([down[:third], down[third:2 * third], down[2 * third:]])
            got = await recv_until(ws, lambda m: m["t"] in ("lift", "error"))
            assert got[-1]["t"] == "lift" and got[-1]["p"] == 1, got[-1]
    run(go())


def test_the_echo_returns_a_message_many_chunks_long_byte_for_byte(server):
    async def go():
        url = server.ws.replace("/ws", "/echo")
        async with websockets.connect(url, subprotocols=["liftboard.echo"], open_timeout=5) as ws:
            text = "".join(chr(0x41 + (k * 7) % 26) for k in range(20_000))
            await ws.send(text)
            assert await asyncio.wait_for(ws.recv(), 5) == text
    run(go())
