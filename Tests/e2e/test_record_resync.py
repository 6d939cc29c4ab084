"""`--record` keeps the hub's resyncs: a session that was reset to the store's order (a drop
the store refused) replays to what its client was told, drop for drop, because the recording
says where the reset came (`resync` lines, docs/protocol.md)."""
import asyncio
import json
import subprocess

import websockets

from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until
from pg_fixture import wait_until

# Demo board at width 400: milk center 60, mum 89-185 (center 137), plants center 271.
MILK_Y, MUM_MID, PLANTS_Y = 60, 137, 271


def order_of(m):
    """A `commit`'s or a `layout`'s committed order, as lists of ids."""
    if m["t"] == "commit":
        return [s["items"] for s in m["order"]]
    ids = [s["id"] for s in m["sections"]]
    order = [[] for _ in ids]
    for c in sorted(m["cells"], key=lambda c: c["index"]):
        order[ids.index(c["section"])].append(c["id"])
    return order


def replay(liftboard, rec, session):
    out = subprocess.run([liftboard, "replay", "--board", str(rec / f"{session}.board.json"), str(rec / f"{session}.jsonl")],
                         capture_output=True, timeout=30)
    assert out.returncode == 0, out.stderr
    return [json.loads(l) for l in out.stdout.decode().splitlines()]


def test_a_recording_of_a_refused_drop_replays_to_the_order_its_client_ended_with(postgres, tmp_path, liftboard):
    url = postgres.create_database()
    rec = tmp_path / "rec"
    s = RunningServer("--store", url, "--record", str(rec), data_dir=tmp_path / "a").start()
    try:
        async def go():
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
                await ws.send(json.dumps(HELLO))
                got = await recv_until(ws, lambda m: m["t"] == "layout")
                session = got[0]["session"]
                await long_press_drag(ws, 50, MILK_Y, MUM_MID + 5)                    # v1 lands
                got += await recv_until(ws, lambda m: m["t"] == "commit")
                postgres.stop("immediate")
                await long_press_drag(ws, 50, PLANTS_Y, MUM_MID + 5)                  # refused
                got += await recv_until(ws, lambda m: m["t"] == "layout", timeout=15)
                postgres.start()
                assert wait_until(lambda: s.get("/healthz")[0] == 200, timeout=20)
                await long_press_drag(ws, 50, MILK_Y, PLANTS_Y + 30)                  # another drop: v2 lands
                got += await recv_until(ws, lambda m: m["t"] == "commit" and m["version"] == 2, timeout=10)
                return session, got
        session, live = asyncio.run(asyncio.wait_for(go(), 90))
    finally:
        s.stop()
        if postgres.psql("postgres", "SELECT 1") != "1":
            postgres.start()
    assert any(m["t"] == "error" and m["code"] == "store_unavailable" for m in live)
    stream = (rec / f"{session}.jsonl").read_text()
    assert '"t":"resync"' in stream

    replayed = replay(liftboard, rec, session)
    assert not [m for m in replayed if m["t"] == "error"]
    # The client was told v1, then (after the refusal) the layout back at v1, then v2: the
    # replay tells the same, in the same order. (The refused drop's own commit was never sent
    # to the client; the replay, which has no store, prints it before the reset.)
    told = [(m["t"], m["version"], order_of(m)) for m in live if m["t"] in ("commit", "layout")]
    replayed_told = [(m["t"], m["version"], order_of(m)) for m in replayed if m["t"] in ("commit", "layout")]
    refused = [t for t in replayed_told if t not in told]
    assert [t[:2] for t in refused] == [("commit", 2)], refused
    assert [t for t in replayed_told if t not in refused] == told
    assert told[-1][0] == "commit" and told[-1][1] == 2

    # Without the resync lines the replay goes wrong: it builds the last drop on the refused one.
    (rec / "no-resync.jsonl").write_text("".join(l + "\n" for l in stream.splitlines() if '"t":"resync"' not in l))
    (rec / "no-resync.board.json").write_text((rec / f"{session}.board.json").read_text())
    wrong = [m for m in replay(liftboard, rec, "no-resync") if m["t"] == "commit"]
    assert (wrong[-1]["version"], order_of(wrong[-1])) != (told[-1][1], told[-1][2])
