"""`hello.config.events: "inline"` against the real server: lift, moved and drop come inside
frames (one message per move), in the contract's order, and the default stays as it was."""
import asyncio
import json

import pytest
import websockets

from liftboard_server import HELLO, RunningServer, recv_until

MILK_Y, MUM_MID = 60, 137


@pytest.fixture
def server(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data").start()
    yield s
    s.stop()


def events_of(m):
    return m.get("events", []) if m["t"] == "frame" else []


def test_a_drag_with_inline_events_gets_one_frame_per_move_carrying_lift_moved_and_drop(server, schema_validator):
    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
            await ws.send(json.dumps({**HELLO, "config": {"events": "inline"}}))
            got = await recv_until(ws, lambda m: m["t"] == "layout")
            assert got[0]["t"] == "welcome" and got[0]["config"]["events"] == "inline"
            await ws.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": MILK_Y, "ms": 0, "kind": "touch"}))
            msgs = await recv_until(ws, lambda m: any(e["t"] == "lift" for e in events_of(m)), timeout=3)
            steps = 10
            batches = []
            for k in range(1, steps + 1):
                y = MILK_Y + (MUM_MID + 5 - MILK_Y) * k / steps
                await ws.send(json.dumps({"t": "move", "p": 1, "x": 50, "y": y, "ms": 0, "seq": k}))
                batch = await recv_until(ws, lambda m: m["t"] == "frame" and m.get("ack") == k, timeout=3)
                batches.append(batch)
                msgs += batch
            await ws.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MUM_MID + 5, "ms": 0, "seq": steps + 1}))
            msgs += await recv_until(ws, lambda m: m["t"] == "commit", timeout=5)
            return msgs, batches
    msgs, batches = asyncio.run(asyncio.wait_for(go(), 30))
    for m in msgs:
        schema_validator.validate(m)
    assert not [m for m in msgs if m["t"] in ("lift", "moved", "drop")], "no gesture event travels on its own"
    riding = [(k, e) for k, m in enumerate(msgs) for e in events_of(m)]
    kinds = [e["t"] for _, e in riding]
    assert kinds[0] == "lift" and kinds[-1] == "drop" and kinds.count("lift") == 1 and kinds.count("drop") == 1
    moved = [e for _, e in riding if e["t"] == "moved"]
    assert moved and moved[0]["id"] == "milk" and moved[0]["to"] == {"section": "todo", "index": 1}
    drop_at = next(k for k, e in riding if e["t"] == "drop")
    commit_at = next(k for k, m in enumerate(msgs) if m["t"] == "commit")
    assert drop_at < commit_at and msgs[commit_at]["version"] == 1
    # Every move was answered by exactly one message: the frame that acknowledges it, reorders included.
    assert [len(b) for b in batches] == [1] * 10, [[m["t"] for m in b] for b in batches]
    assert any(events_of(b[0]) for b in batches)
    assert [i["id"] for i in server.board()["sections"][0]["items"][:2]] == ["mum", "milk"]


def test_an_unknown_events_value_is_a_bad_message_and_the_session_goes_on(server):
    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
            await ws.send(json.dumps({**HELLO, "config": {"events": "sometimes"}}))
            bad = await recv_until(ws, lambda m: m["t"] == "error")
            await ws.send(json.dumps(HELLO))
            ok = await recv_until(ws, lambda m: m["t"] == "layout")
            return bad, ok
    bad, ok = asyncio.run(asyncio.wait_for(go(), 30))
    assert bad[-1]["code"] == "bad_message" and "events" in bad[-1]["message"]
    assert ok[0]["t"] == "welcome" and "events" not in ok[0]["config"]
