"""SIGTERM is bounded: whatever the clients do (one never reads, one upgraded and never said
hello, one reads but never answers the close), the server exits within 2 s of the signal, the
sessions that can take it get their 1001 close, and no commit a client was told of is lost."""
import asyncio
import base64
import json
import os
import signal
import socket
import struct
import threading
import time

import websockets

from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until, wait_for

# Demo board at width 400: milk center 60, mum 89-185 (center 137).
MILK_Y, MUM_MID = 60, 137


def frame(text):
    """A masked client text frame."""
    payload = text.encode()
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_session(port, hello=True, rcvbuf=None):
    """An upgraded WebSocket on a plain socket, which reads nothing after the 101."""
    s = socket.socket()
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    s.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: liftboard.v1\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += s.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    if hello:
        s.sendall(frame(json.dumps(HELLO)))
    return s


def test_sigterm_with_a_client_that_never_reads_exits_within_2_s_and_loses_no_acknowledged_commit(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data").start()
    raws = []
    try:
        async def go():
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
                await ws.send(json.dumps(HELLO))
                await recv_until(ws, lambda m: m["t"] == "layout")
                await long_press_drag(ws, 50, MILK_Y, MUM_MID + 5)
                told = await recv_until(ws, lambda m: m["t"] == "commit")
                assert told[-1]["t"] == "commit" and told[-1]["version"] == 1
                # A client that never reads, with the server's answers (a whole layout per
                # resize) piling up in its socket; one that never says hello (below).
                reader = raw_session(s.port, rcvbuf=4096)
                for w in range(300):
                    reader.sendall(frame(json.dumps({"t": "resize", "w": 300 + w % 100, "h": 800, "dpr": 1, "ms": w})))
                # One that reads everything and never answers the close.
                deaf = raw_session(s.port)
                threading.Thread(target=lambda: [None for _ in iter(lambda: deaf.recv(65536), b"")], daemon=True).start()
                raws.extend([reader, raw_session(s.port, hello=False), deaf])
                await asyncio.sleep(0.3)
                started = time.monotonic()
                s.proc.send_signal(signal.SIGTERM)
                # This client reads: it gets its 1001.
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 3)
                except websockets.ConnectionClosed as closed:
                    assert closed.rcvd is not None and closed.rcvd.code == 1001
                return started
        started = asyncio.run(asyncio.wait_for(go(), 30))
        s.proc.wait(5)
        elapsed = time.monotonic() - started
        assert elapsed < 2.0, f"exited {elapsed:.2f} s after SIGTERM"
        assert s.proc.returncode == 0
        s.wait_for_line("shutdown")
    finally:
        for r in raws:
            r.close()
        s.stop()
    # What the client was told is durable.
    again = RunningServer(data_dir=tmp_path / "data").start()
    try:
        assert again.board()["version"] == 1
    finally:
        again.stop()


def test_while_draining_healthz_says_so(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data").start()
    try:
        reader = raw_session(s.port, hello=False)
        s.proc.send_signal(signal.SIGTERM)
        # The silent session keeps it draining (until its hello deadline): waited for, bounded.
        status, _, body = wait_for(lambda: (lambda r: r if r[0] == 503 else None)(s.get("/healthz")),
                                   what="/healthz to answer 503 once SIGTERM is handled")
        assert status == 503 and json.loads(body)["draining"] is True
        s.proc.wait(5)
        reader.close()
    finally:
        s.stop()


def test_sigterm_to_workers_with_silent_sessions_and_a_change_feed_stops_every_process_within_2_s(postgres, tmp_path):
    import subprocess
    from pg_fixture import free_port, wait_until
    url = postgres.create_database()
    port = free_port()
    s = RunningServer("--store", url, "--workers", "2", data_dir=tmp_path / "w")
    s.args[s.args.index("--port") + 1] = str(port)
    s.start()
    socks = []
    try:
        assert wait_until(lambda: sum(f":{port}/" in l for l in s.lines) == 2, timeout=15), s.lines
        children = subprocess.run(["pgrep", "-P", str(s.proc.pid)], capture_output=True, text=True).stdout.split()
        assert len(children) == 1
        # Silent sessions (spread over both workers by the kernel) and a change feed that reads nothing.
        socks = [raw_session(port, hello=k % 2 == 0) for k in range(6)]
        feed = socket.create_connection(("127.0.0.1", port))
        feed.sendall(f"GET /api/boards/demo/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        socks.append(feed)
        time.sleep(0.3)
        started = time.monotonic()
        s.proc.send_signal(signal.SIGTERM)
        s.proc.wait(5)
        elapsed = time.monotonic() - started
        assert elapsed < 2.0, f"exited {elapsed:.2f} s after SIGTERM"
        assert not os.path.exists(f"/proc/{children[0]}"), "the other worker is gone too"
    finally:
        for r in socks:
            r.close()
        s.stop()
