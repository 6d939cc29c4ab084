"""A board of a million items: a drop closes no session, and a client that asked for changes
only (`commitOrder: "none"`) gets a commit of a few hundred bytes."""
import asyncio
import json

import pytest
import websockets

from liftboard_server import RunningServer, long_press_drag, recv_until

ITEMS = 1_000_000


@pytest.fixture(scope="module")
def big_server(tmp_path_factory):
    root = tmp_path_factory.mktemp("big")
    boards = root / "boards"
    boards.mkdir()
    board = {"id": "big", "layout": "list", "list": {"rowHeight": 50, "headerHeight": 0, "spacing": 0},
             "sections": [{"id": "all", "items": [{"id": f"i{k}"} for k in range(ITEMS)]}, {"id": "done", "items": []}]}
    (boards / "big.json").write_text(json.dumps(board))
    s = RunningServer("--boards", str(boards), data_dir=root / "data").start(timeout=180)
    yield s
    s.stop()


def hello(commit_order=None):
    m = {"t": "hello", "v": 1, "board": "big", "viewport": {"w": 400, "h": 600, "dpr": 1}}
    if commit_order:
        m["config"] = {"commitOrder": commit_order}
    return json.dumps(m)


def test_a_drop_on_a_million_item_board_closes_no_session_and_commits_in_under_a_kilobyte(big_server):
    async def scenario():
        kw = dict(subprotocols=["liftboard.v1"], open_timeout=10, max_size=None)
        async with websockets.connect(big_server.ws, **kw) as dropper, \
                websockets.connect(big_server.ws, **kw) as full, websockets.connect(big_server.ws, **kw) as none:
            for ws, mode in ((dropper, "none"), (full, None), (none, "none")):
                await ws.send(hello(mode))
                layout = await recv_until(ws, lambda m: m["t"] == "layout", timeout=30)
                assert layout[-1]["t"] == "layout" and layout[-1]["version"] == 0
                # Only the window's cells, never the million.
                assert len(layout[-1]["cells"]) < 100
            # Rows of 50: i0 (center 25) passes i1 and i2 (midpoints 75, 125): i1 i2 i0 ...
            # (The others' joins reach the dropper as presence while its clock, with no `ms` in
            # its hello, is provisional: its first ms 0 goes on from there, `ClientClock.shift`.)
            await long_press_drag(dropper, 100, 25, 140)
            async def commit_of(ws):
                while True:
                    raw = await asyncio.wait_for(ws.recv(), 60)
                    if json.loads(raw)["t"] == "commit":
                        return len(raw.encode()), json.loads(raw)
            (mine_bytes, mine), (none_bytes, theirs_none), (_, theirs_full) = await asyncio.gather(
                commit_of(dropper), commit_of(none), commit_of(full))
            for c in (mine, theirs_none):
                assert "order" not in c and c["change"] == {"id": "i0", "section": "all", "after": "i2", "index": 2}
                assert c["version"] == 1 and c["moves"] == [{"id": "i0", "from": {"section": "all", "index": 0},
                                                             "to": {"section": "all", "index": 2}}]
            assert mine_bytes < 1024 and none_bytes < 1024, (mine_bytes, none_bytes)
            # The client that asked for the whole order gets all million ids, and is not closed.
            assert theirs_full["order"][0]["items"][:4] == ["i1", "i2", "i0", "i3"]
            assert len(theirs_full["order"][0]["items"]) == ITEMS
            for ws in (dropper, full, none):
                await ws.send(json.dumps({"t": "ping", "id": 7, "ms": 0}))
                pong = await recv_until(ws, lambda m: m["t"] == "pong", timeout=10)
                assert pong and pong[-1]["t"] == "pong", "the session is still open and answering"
            # A newcomer starts at the committed version (the whole board over HTTP would be 20 MB).
            async with websockets.connect(big_server.ws, **kw) as late:
                await late.send(hello("none"))
                layout = await recv_until(late, lambda m: m["t"] == "layout", timeout=30)
                assert layout[-1]["version"] == 1
    asyncio.run(asyncio.wait_for(scenario(), 120))
