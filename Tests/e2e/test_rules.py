"""Issue 23 on one real `liftboard serve` process: two sessions racing for a column's last
place, and the rules as the HTTP API enforces them."""
import asyncio
import json

import websockets

from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until

RACE_BOARD = {"id": "race", "sections": [
    {"id": "todo", "title": "To do", "items": [{"id": "a"}, {"id": "b"}]},
    {"id": "doing", "title": "Doing", "max": 1, "items": []}]}


def start(tmp_path, *args):
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "race.json").write_text(json.dumps(RACE_BOARD))
    return RunningServer("--boards", str(boards), *args, data_dir=tmp_path / "data").start()


def test_two_sessions_on_one_process_racing_for_the_last_place_land_one_and_refuse_the_other(tmp_path):
    server = start(tmp_path)
    try:
        async def go():
            hello = dict(HELLO, board="race")
            async with websockets.connect(server.ws, subprotocols=["liftboard.v1"]) as wa, \
                    websockets.connect(server.ws, subprotocols=["liftboard.v1"]) as wb:
                sessions = []
                for ws in (wa, wb):
                    await ws.send(json.dumps(hello))
                    sessions.append((await recv_until(ws, lambda m: m["t"] == "layout"))[0]["session"])
                # a (center 60) and b (center 117) each into doing's slot (header 145-177)
                await asyncio.gather(long_press_drag(wa, 50, 60, 200, release=False),
                                     long_press_drag(wb, 50, 117, 200, release=False))
                await asyncio.gather(wa.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 200, "ms": 0})),
                                     wb.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 200, "ms": 0})))
                # Each drop's outcome: its own commit, or the error that refuses it (the store's
                # answer: one a drop, and nothing after it about that drop).
                def outcome(session):
                    return lambda m: m["t"] == "error" or (m["t"] == "commit" and m["by"] == session)
                got = await asyncio.gather(recv_until(wa, outcome(sessions[0]), timeout=10),
                                           recv_until(wb, outcome(sessions[1]), timeout=10))
                for session, messages in zip(sessions, got):
                    assert messages and outcome(session)(messages[-1]), f"no outcome for {session} within 10 s: {messages[-5:]}"
                return got
        got_a, got_b = asyncio.run(asyncio.wait_for(go(), 30))
        board = server.board("race")
        doing = board["order"][1]["items"]
        assert board["version"] == 1 and len(doing) == 1, board["order"]
        errors = [m for m in got_a + got_b if m["t"] == "error"]
        assert [e["code"] for e in errors] == ["rule_refused"], errors
        assert errors[0]["message"] == 'max: section "doing" holds at most 1 item'
    finally:
        server.stop()


def test_the_api_refuses_an_item_a_section_would_refuse(tmp_path):
    server = start(tmp_path, "--admin-token", "t0ken")
    try:
        import urllib.request
        def post(body, version):
            req = urllib.request.Request(server.http + "/api/boards/race/items", data=json.dumps(body).encode(), method="POST",
                                         headers={"Authorization": "Bearer t0ken", "If-Match": str(version)})
            try:
                with urllib.request.urlopen(req) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())
        assert post({"id": "c", "section": "doing", "kind": "bug", "handle": "leading"}, 0)[0] == 201
        status, body = post({"id": "d", "section": "doing"}, 1)
        assert status == 409 and body["error"]["code"] == "rule_refused", body
        assert body["error"]["message"] == 'max: section "doing" holds at most 1 item'
        items = server.board("race")["sections"][1]["items"]
        assert [(i["id"], i.get("kind"), i.get("handle")) for i in items] == [("c", "bug", "leading")]
    finally:
        server.stop()
