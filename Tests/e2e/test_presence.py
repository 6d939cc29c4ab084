"""Issue 44: presence and holds, and a connection's queued messages leaving in one write."""
import asyncio
import base64
import json
import os
import socket
import struct

import pytest
import websockets

from liftboard_server import HELLO, RunningServer, assert_replays, long_press_drag, recv_until, until_pong


@pytest.fixture
def server(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data").start()
    yield s
    s.stop()


class RawSocket:
    """A WebSocket client on a bare socket, so that what one `recv` returns can be seen: the
    frames of one server write arrive together on loopback."""

    def __init__(self, server):
        host, port = server.http.split("//")[1].split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=5)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"Sec-WebSocket-Protocol: liftboard.v1\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            assert chunk, "the server closed during the upgrade"
            head += chunk
        status, self.rest = head.split(b"\r\n\r\n", 1)
        assert b" 101 " in status.split(b"\r\n")[0], status
        assert not self.rest, "nothing is sent before the hello"

    def send(self, obj):
        payload = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(payload)
        header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def read_once(self):
        """The complete frames of one `recv` (one read of the socket), as parsed messages; the
        bytes of a frame cut by the read are read to its end, not counted as a second read."""
        data = self.sock.recv(1 << 20)
        assert data, "the server closed"
        messages = []
        while data:
            n = data[1] & 0x7F
            at = 2
            if n == 126:
                n, at = struct.unpack(">H", data[2:4])[0], 4
            elif n == 127:
                n, at = struct.unpack(">Q", data[2:10])[0], 10
            while len(data) < at + n:
                more = self.sock.recv(1 << 20)
                assert more, "the server closed inside a frame"
                data += more
            messages.append(json.loads(data[at:at + n]))
            data = data[at + n:]
        return messages

    def close(self):
        self.sock.close()


def test_a_hellos_answers_reach_the_client_in_one_read(server):
    # The welcome, the layout and the presence of the join are queued together: they leave in
    # one write of three WebSocket messages, so the read that wakes on the first gets all three
    # (separate writes wake the reader on the welcome alone).
    c = RawSocket(server)
    try:
        c.send(dict(HELLO))
        got = c.read_once()
        assert [m["t"] for m in got] == ["welcome", "layout", "presence"], got
        assert [e["name"] for e in got[2]["people"]] == ["Guest 1"], got[2]
    finally:
        c.close()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def connect(server):
    return websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5)


def held_by(messages, item):
    """The last `heldBy` the messages say of `item`'s cell: a name, None (cleared) or ... (not said)."""
    said = ...
    for m in messages:
        cells = m.get("cells", []) if m["t"] in ("frame", "layout") else []
        for c in cells:
            if c["id"] == item and "heldBy" in c:
                said = c["heldBy"]
    return said


def test_a_hold_is_told_to_the_others_and_refuses_their_press(server):
    # Demo board at width 400: milk (the first card) at y 32-88.
    async def go():
        async with connect(server) as ana, connect(server) as bo:
            await ana.send(json.dumps(HELLO))
            first = await recv_until(ana, lambda m: m["t"] == "presence")
            assert first[-1]["t"] == "presence", first
            await bo.send(json.dumps(HELLO))
            got = await recv_until(bo, lambda m: m["t"] == "presence" and len(m["people"]) == 2)
            p = got[-1]
            assert [e["name"] for e in p["people"]] == ["Guest 1", "Guest 2"] and p["watching"] == 0, p
            ana_id = p["people"][0]["session"]
            assert all(e["holds"] == [] and e["role"] == "edit" and e["user"] is None for e in p["people"])
            assert p["people"][0]["color"] != "" and p["people"][0]["color"].startswith("#")
            # Ana hears of Bo's join too.
            got = await recv_until(ana, lambda m: m["t"] == "presence" and len(m["people"]) == 2)
            assert got[-1]["t"] == "presence"
            # Ana lifts milk and keeps holding it.
            await long_press_drag(ana, 50, 60, 70, steps=2, release=False)
            got = await recv_until(bo, lambda m: m["t"] == "presence" and any(e["holds"] for e in m["people"]))
            p = got[-1]
            assert p["t"] == "presence", got
            holder = next(e for e in p["people"] if e["holds"])
            assert holder["session"] == ana_id and holder["holds"] == ["milk"], p
            assert held_by(got, "milk") == "Guest 1", got
            # Bo's long press on milk lifts nothing and says who moves it.
            await bo.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": 60, "ms": 0, "kind": "touch"}))
            got = await recv_until(bo, lambda m: m["t"] == "announce" or m["t"] == "lift", timeout=3)
            assert got and got[-1] == {"t": "announce", "text": "Guest 1 is moving Buy milk."}, got
            await bo.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 60, "ms": 0}))
            # Ana's own lift brought her no presence: her stream up to a pong has none.
            mine = await until_pong(ana, "p1")
            assert not any(m["t"] == "presence" for m in mine), mine
            # Ana drops: Bo hears the hold end, and his press lifts milk.
            await ana.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 70, "ms": 0}))
            got = await recv_until(bo, lambda m: m["t"] == "presence" and not any(e["holds"] for e in m["people"]))
            assert got[-1]["t"] == "presence", got
            assert held_by(got, "milk") is None, got
            await long_press_drag(bo, 50, 60, 60, steps=1)
    run(go())


def test_a_hold_is_told_when_the_holders_events_ride_in_its_frames(server):
    # The page asks for `events: "inline"`: its lift, moves and drop come inside frames, and
    # they still make the hold (and its end) news for the others.
    async def go():
        async with connect(server) as ana, connect(server) as bo:
            await bo.send(json.dumps(HELLO))
            await recv_until(bo, lambda m: m["t"] == "presence")
            await ana.send(json.dumps({**HELLO, "config": {"events": "inline"}}))
            await recv_until(bo, lambda m: m["t"] == "presence" and len(m["people"]) == 2)
            await recv_until(ana, lambda m: m["t"] == "presence")
            await ana.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": 60, "ms": 0, "kind": "touch"}))
            lifted = await recv_until(ana, lambda m: m["t"] == "frame" and any(e["t"] == "lift" for e in m.get("events", [])), timeout=3)
            assert not any(m["t"] == "lift" for m in lifted), "the lift rides in a frame"
            for k in range(1, 6):
                await ana.send(json.dumps({"t": "move", "p": 1, "x": 50, "y": 60 + 30 * k, "ms": 0, "seq": k}))
                await asyncio.sleep(0.016)
            got = await recv_until(bo, lambda m: m["t"] == "presence" and any(e["holds"] for e in m["people"]))
            holder = next(e for e in got[-1]["people"] if e["holds"])
            assert holder["holds"] == ["milk"] and holder["target"]["section"] == "todo", got[-1]
            assert held_by(got, "milk") == holder["name"], got
            await ana.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 210, "ms": 0}))
            got = await recv_until(bo, lambda m: m["t"] == "presence" and not any(e["holds"] for e in m["people"]))
            assert got[-1]["t"] == "presence" and held_by(got, "milk") is None, got
    run(go())


def test_a_hold_made_alone_on_the_board_is_told_to_whoever_joins(server):
    # A session alone on its board is told nothing of its own holds, so the hub does not follow
    # them move by move: it reads them when someone joins. Bo's first presence has Ana's hold
    # and the place of her last `moved`, and his cell of milk says who holds it.
    async def go():
        async with connect(server) as ana, connect(server) as bo:
            await ana.send(json.dumps(HELLO))
            await recv_until(ana, lambda m: m["t"] == "presence")
            await long_press_drag(ana, 50, 60, 240, steps=6, release=False)
            mine = await until_pong(ana, "alone")
            moved = [m for m in mine if m["t"] == "moved"]
            assert moved, f"Ana's drag moved milk: {mine}"
            await bo.send(json.dumps(HELLO))
            got = await recv_until(bo, lambda m: m["t"] == "presence")
            assert got and got[-1]["t"] == "presence", got
            holder = next((e for e in got[-1]["people"] if e["holds"]), None)
            assert holder is not None and holder["holds"] == ["milk"], got[-1]
            assert holder["target"] == moved[-1]["to"], (holder, moved[-1])
            assert held_by(got, "milk") == holder["name"], got
            # Ana drops while Bo is there: he hears the hold end.
            await ana.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 240, "ms": 0}))
            got = await recv_until(bo, lambda m: m["t"] == "presence" and not any(e["holds"] for e in m["people"]))
            assert got and got[-1]["t"] == "presence" and held_by(got, "milk") is None, got
    run(go())


def test_a_recording_of_bos_session_with_ana_dragging_replays_to_what_bo_was_sent(tmp_path, liftboard):
    rec = tmp_path / "rec"
    s = RunningServer("--record", str(rec), data_dir=tmp_path / "data").start()
    try:
        async def go():
            async with connect(s) as ana, connect(s) as bo:
                await ana.send(json.dumps(HELLO))
                await recv_until(ana, lambda m: m["t"] == "presence")
                await bo.send(json.dumps(HELLO))
                told = await recv_until(bo, lambda m: m["t"] == "presence" and len(m["people"]) == 2)
                await long_press_drag(ana, 50, 60, 200, steps=8, release=False)
                told += await recv_until(bo, lambda m: m["t"] == "presence" and any(e["holds"] for e in m["people"]))
                await bo.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": 60, "ms": 0, "kind": "touch"}))
                told += await recv_until(bo, lambda m: m["t"] == "announce", timeout=3)
                await bo.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 60, "ms": 0}))
                await ana.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 200, "ms": 0}))
                told += await recv_until(bo, lambda m: m["t"] == "commit")
                told += await recv_until(bo, lambda m: m["t"] == "presence" and not any(e["holds"] for e in m["people"]))
                told += await until_pong(bo, "end")
                return told
        told = run(go())
    finally:
        s.stop()
    # Everything, frames' times included, is what Bo was sent, message for message.
    stream, replayed = assert_replays(liftboard, rec, told)
    assert '"t":"presence"' in stream
    assert any(held_by([m], "milk") == "Guest 1" for m in replayed)
