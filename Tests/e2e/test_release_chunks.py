"""A release pass written a chunk at a time (`Hub+Release.swift`): between two chunks the loop
reads what came, so commits made meanwhile join the pass. `LIFTBOARD_RELEASE_CHUNK=1` makes
every pass of more than one session wait between sessions; whatever the interleaving, every
watcher gets every commit once, in order, and sessions that leave in the middle of a pass are
not written to."""
import asyncio
import json

import websockets

from liftboard_server import HELLO, RunningServer, recv_until


def test_commits_close_together_reach_every_watcher_once_in_order_while_passes_wait_between_sessions(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data", env={"LIFTBOARD_RELEASE_CHUNK": "1"}).start()
    movers, rounds = ["milk", "mum", "plants", "tax"], 4
    commits = len(movers) * rounds

    async def session():
        ws = await websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=5, max_size=None, max_queue=None)
        await ws.send(json.dumps(HELLO))
        layout = (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]
        assert layout["t"] == "layout" and layout["version"] == 0
        return ws

    async def go():
        watchers = [await session() for _ in range(12)]
        moving = [await session() for _ in movers]
        # Four sessions each move their card to Done and back to To do, twice, each move sent
        # as the last one's commit comes back: sixteen commits close together, many made
        # while a pass waits between two sessions.
        async def move(ws, item):
            for k in range(rounds):
                section = "done" if k % 2 == 0 else "todo"
                await ws.send(json.dumps({"t": "moveTo", "id": item, "section": section, "place": "last", "ms": 0}))
                mine = await recv_until(ws, lambda m: m["t"] == "commit" and m["moves"][0]["id"] == item)
                assert mine and mine[-1]["t"] == "commit", mine
        movers_done = asyncio.gather(*(move(ws, item) for ws, item in zip(moving, movers)))
        # Three watchers leave as the first commit reaches them, in the middle of its pass.
        for ws in watchers[3:6]:
            await recv_until(ws, lambda m: m["t"] == "commit")
            ws.transport.abort()
        await movers_done
        for ws in watchers[:3] + watchers[6:]:
            versions = []
            while len(versions) < commits:
                got = await recv_until(ws, lambda m: m["t"] == "commit", timeout=10)
                assert got and got[-1]["t"] == "commit", f"a watcher stopped at {versions}"
                versions += [m["version"] for m in got if m["t"] == "commit"]
            assert versions == list(range(1, commits + 1))
        for ws in watchers[:3] + watchers[6:] + moving:
            await ws.close()

    try:
        asyncio.run(asyncio.wait_for(go(), 60))
        # The server went on, and stored every commit.
        assert s.board()["version"] == commits
        assert s.proc.poll() is None
    finally:
        s.stop()
