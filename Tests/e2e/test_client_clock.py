"""Live sessions run on the client's clock (docs/protocol.md, "Coordinates and time"), driven
over a real WebSocket against the real server."""
import asyncio
import json
import time

import pytest
import websockets

from liftboard_server import HELLO, RunningServer, recv_until, wait_for

MILK_Y = 60


@pytest.fixture
def server(tmp_path):
    s = RunningServer("--record", str(tmp_path / "rec"), data_dir=tmp_path / "data").start()
    s.rec = tmp_path / "rec"
    yield s
    s.stop()


def run(coro):
    return asyncio.run(coro)


async def hello(ws, ms):
    await ws.send(json.dumps({**HELLO, "ms": ms}))
    return (await recv_until(ws, lambda m: m["t"] == "layout"))[0]["session"]


def test_a_press_is_timed_by_the_clients_ms_not_by_when_the_server_reads_it(server):
    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"]) as ws:
            await hello(ws, 10_000)
            await ws.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": MILK_Y, "ms": 10_000, "kind": "touch"}))
            # 100 ms of real time later the client says 520 ms have passed (a clock 420 ms ahead
            # is within the lead): the press fired at 10,500, before this move.
            await asyncio.sleep(0.1)
            t0 = time.monotonic()
            await ws.send(json.dumps({"t": "move", "p": 1, "x": 50, "y": MILK_Y + 3, "ms": 10_520, "seq": 1}))
            got = await recv_until(ws, lambda m: m["t"] == "lift", timeout=2)
            assert got and got[-1]["t"] == "lift" and got[-1]["id"] == "milk"
            assert time.monotonic() - t0 < 0.3  # the move's own answer, not a server timer 500 ms on
            frame = (await recv_until(ws, lambda m: m["t"] == "frame"))[-1]
            assert frame["ms"] == 10_520 and frame["ack"] == 1
    run(go())


def test_moves_read_late_in_a_burst_count_at_their_own_times_and_pan(server):
    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"]) as ws:
            await hello(ws, 0)
            # A down and, 200 client-ms later, a move of 40 px: a pan. All sent at once, as a
            # busy server would read them; the press (due at 500) never fires.
            await ws.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": 300, "ms": 0, "kind": "touch"}))
            await ws.send(json.dumps({"t": "move", "p": 1, "x": 50, "y": 260, "ms": 200, "seq": 1}))
            got = await recv_until(ws, lambda m: m["t"] == "lift", timeout=1.2)
            assert not any(m["t"] == "lift" for m in got)
            assert any(m["t"] == "frame" and m.get("scroll", {}).get("y") == 40 for m in got)
    run(go())


def test_a_client_clock_leaping_ahead_is_clamped_and_ms_never_goes_back(server):
    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"]) as ws:
            session = await hello(ws, 0)
            await ws.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": MILK_Y, "ms": 0, "kind": "touch"}))
            # An hour ahead: clamped to the mapping plus 1,000 ms, so the press fires (at 500),
            # but the session's time stays near the server's.
            await ws.send(json.dumps({"t": "ping", "id": 1, "ms": 3_600_000}))
            pong = (await recv_until(ws, lambda m: m["t"] == "pong"))[-1]
            assert pong["ms"] < 1_500
            # Back in time: taken as the last time.
            await ws.send(json.dumps({"t": "ping", "id": 2, "ms": 5}))
            again = (await recv_until(ws, lambda m: m["t"] == "pong"))[-1]
            assert again["id"] == 2 and again["ms"] >= pong["ms"]
            return session, pong["ms"], again["ms"]
    session, clamped, later = run(go())
    # The recording holds the times the session used, not the client's claims. It is written
    # once the session is closed: waited for (at most 10 s), whole lines only.
    path = server.rec / f"{session}.jsonl"

    def pings():
        out = []
        for line in (path.read_text().splitlines() if path.exists() else []):
            try:
                m = json.loads(line)
            except ValueError:
                continue  # a line still being written
            if m.get("t") == "ping":
                out.append(m["ms"])
        return out
    wait_for(lambda: len(pings()) >= 2, what=f"two pings in {path}")
    assert pings() == [clamped, later]
