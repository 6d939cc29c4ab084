"""A columns board (issue 24) on the real `liftboard serve`: a wheel scrolls one column, a drag
crosses columns in both axes, every message is valid under the protocol schema, the API reads
the order back, and the session's recording replays to the same commits."""
import asyncio
import json
import subprocess

from liftboard_server import RunningServer, recv_until

# Default metrics: columns 280 wide, 12 apart; header 40; rows of 56, 8 apart.
BOARD = {
    "id": "cols", "layout": "columns",
    "sections": [
        {"id": "todo", "title": "To do", "items": [{"id": x} for x in "abcd"]},
        {"id": "doing", "title": "Doing", "items": [{"id": f"w{k}"} for k in range(12)]},
        {"id": "done", "title": "Done", "items": []},
    ],
}
HELLO = {"t": "hello", "v": 1, "board": "cols", "viewport": {"w": 700, "h": 600, "dpr": 1}}


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


async def session(s, schema_validator):
    import websockets
    async with websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
        await ws.send(json.dumps(HELLO))
        got = await recv_until(ws, lambda m: m["t"] == "layout")
        layout = got[-1]
        assert layout["layout"] == "columns" and layout["content"] == {"w": 864, "h": 600}
        assert [sec["contentHeight"] for sec in layout["sections"]] == [288, 800, 96]
        # dy scrolls "doing", the column under (430, 300); dx would move the board (it fits: 0).
        await ws.send(json.dumps({"t": "wheel", "dx": 0, "dy": 50, "x": 430, "y": 300, "ms": 0}))
        got += await recv_until(ws, lambda m: m["t"] == "frame" and "sections" in m)
        assert [sec["scroll"] for sec in got[-1]["sections"]] == [0, 50, 0]
        # b (center 140, 132) long-pressed and carried right and down into "doing".
        await ws.send(json.dumps({"t": "down", "p": 1, "x": 140, "y": 132, "ms": 0, "kind": "touch"}))
        got += await recv_until(ws, lambda m: m["t"] == "lift", timeout=3)
        assert got[-1]["axis"] == "xy"
        for k in range(1, 11):
            await ws.send(json.dumps({"t": "move", "p": 1, "x": 140 + 29 * k, "y": 132 + 3 * k, "ms": 0, "seq": k}))
            await asyncio.sleep(0.016)
        await ws.send(json.dumps({"t": "up", "p": 1, "x": 430, "y": 162, "ms": 0}))
        got += await recv_until(ws, lambda m: m["t"] == "commit")
        for m in got:
            schema_validator.validate(m)
        return got[0]["session"], [m for m in got if m["t"] == "commit"]


def test_a_columns_board_drags_across_columns_and_its_recording_replays_to_the_same_commits(tmp_path, liftboard, schema_validator):
    boards, rec = tmp_path / "boards", tmp_path / "rec"
    boards.mkdir()
    (boards / "cols.json").write_text(json.dumps(BOARD))
    s = RunningServer("--boards", str(boards), "--record", str(rec), data_dir=tmp_path / "data").start()
    try:
        sid, live = run(session(s, schema_validator))
        # Column y 162 + 50 = 212: before w3 (midpoint 260), after w2 (196).
        assert live[-1]["change"] == {"id": "b", "section": "doing", "after": "w2", "index": 3}
        order = {o["section"]: o["items"] for o in s.board("cols")["order"]}
        assert order["todo"] == ["a", "c", "d"] and order["doing"][:5] == ["w0", "w1", "w2", "b", "w3"]
    finally:
        s.stop()
    stream = (rec / f"{sid}.jsonl").read_text()
    assert '"x":430' in stream and '"t":"wheel"' in stream
    out = subprocess.run([liftboard, "replay", "--board", str(rec / f"{sid}.board.json"), str(rec / f"{sid}.jsonl")],
                         capture_output=True, timeout=30)
    assert out.returncode == 0, out.stderr
    replayed = [json.loads(line) for line in out.stdout.decode().splitlines() if '"t":"commit"' in line]
    strip = lambda cs: [{k: v for k, v in c.items() if k != "by"} for c in cs]
    assert strip(replayed) == strip(live)
