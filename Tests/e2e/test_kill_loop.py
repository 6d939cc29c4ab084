"""A server killed with SIGKILL again and again, mid-drag and mid-commit, loses no commit that a
client was told of: a `commit` is durable before it is sent (docs/reliability.md)."""
import asyncio
import json
import signal

import websockets

from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until

CYCLES = 8


async def acknowledged_drop(url):
    """A drag from the first row down, dropped, and the commit it was acknowledged with."""
    async with websockets.connect(url, subprotocols=["liftboard.v1"]) as ws:
        await ws.send(json.dumps(HELLO))
        await recv_until(ws, lambda m: m["t"] == "layout")
        await long_press_drag(ws, 50, 60, 215)
        got = await recv_until(ws, lambda m: m["t"] == "commit")
        assert got[-1]["t"] == "commit", got
        return got[-1]


async def drop_then_kill(url, server):
    """A second drag, a drop, and SIGKILL at once: whether it was saved is a race, but nobody
    was told it was."""
    async with websockets.connect(url, subprotocols=["liftboard.v1"]) as ws:
        await ws.send(json.dumps(HELLO))
        await recv_until(ws, lambda m: m["t"] == "layout")
        await long_press_drag(ws, 50, 60, 215, release=False)
        await ws.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 215, "ms": 0}))
        server.stop(sig=signal.SIGKILL)


def test_no_acknowledged_commit_is_lost_across_repeated_kill_9(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data").start()
    acknowledged = []
    try:
        for _ in range(CYCLES):
            c = asyncio.run(asyncio.wait_for(acknowledged_drop(s.ws), 30))
            acknowledged.append(c)
            try:
                asyncio.run(asyncio.wait_for(drop_then_kill(s.ws, s), 30))
            except (websockets.ConnectionClosed, OSError):
                pass
            s.stop(sig=signal.SIGKILL)
            s.start()
            board = s.board()
            # The acknowledged commit is there; at most the unacknowledged drop after it too.
            assert board["version"] in (c["version"], c["version"] + 1), (board["version"], c["version"])
            if board["version"] == c["version"]:
                assert board["order"] == c["order"]
        assert len(acknowledged) == CYCLES
        assert [c["version"] for c in acknowledged] == sorted({c["version"] for c in acknowledged})
    finally:
        s.stop()
