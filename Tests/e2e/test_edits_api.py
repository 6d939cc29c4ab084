"""The boards API's writes (issue 12) on the real binary: edits made over HTTP reach open
WebSocket sessions as commits while people drag, are stored like drops, and survive a restart."""
import asyncio
import json
import urllib.request

import pytest
import websockets

from conftest import ADMIN
from liftboard_server import HELLO, RunningServer, live_version, long_press_drag, recv_until, until_pong

# Demo board at width 400: "To do" header 0-32; milk 32-88 (center 60); mum 89-185 (center 137).
MILK_Y = 60


@pytest.fixture
def server(admin_server):
    return admin_server


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def call(server, method, path, body=None, version=None, token=ADMIN, raw=None):
    """One API request; returns (status, headers, parsed JSON body)."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(server.http + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())


def items(board, section="todo"):
    return [i["id"] for s in board["sections"] if s["id"] == section for i in s["items"]]


async def session(server):
    ws = await websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5)
    await ws.send(json.dumps(HELLO))
    layout = (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]
    assert layout["t"] == "layout"
    return ws


def commit_of(messages, version):
    return next((m for m in messages if m["t"] == "commit" and m["version"] == version), None)


def test_a_card_added_through_the_api_reaches_two_sessions_while_one_drags_and_that_drag_commits_where_dropped(server):
    async def go():
        a, b = await session(server), await session(server)
        # a lifts milk and carries it below mum, without letting go.
        await long_press_drag(a, 50, MILK_Y, MILK_Y + 100, release=False)
        status, headers, body = await asyncio.to_thread(
            call, server, "POST", "/api/boards/demo/items", {"id": "card", "label": "New card", "section": "todo"}, 0)
        assert status == 201 and body == {"version": 1, "changed": True} and headers["etag"] == '"1"'
        got_a = await recv_until(a, lambda m: m["t"] == "commit")
        got_b = await recv_until(b, lambda m: m["t"] == "commit")
        for got in (got_a, got_b):
            edit = commit_of(got, 1)
            assert edit and edit["by"] == "api", got
            assert edit["change"] == {"edit": "addItem", "section": "todo", "after": "dentist",
                                      "item": {"id": "card", "label": "New card", "color": edit["change"]["item"]["color"],
                                               "movable": True}}
        # The drag went on through the edit: the drop commits milk after mum.
        await a.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MILK_Y + 100, "ms": 0}))
        dropped = await recv_until(a, lambda m: m["t"] == "commit")
        drop = commit_of(dropped, 2)
        assert drop and drop["change"]["id"] == "milk" and drop["change"]["after"] == "mum", dropped
        assert not any(m["t"] == "drop" and m["cancelled"] for m in dropped)
        seen = commit_of(await recv_until(b, lambda m: m["t"] == "commit"), 2)
        assert seen and seen["change"] == drop["change"]
        await a.close(); await b.close()

    run(go())
    board = server.board()
    assert board["version"] == 2
    assert items(board)[:2] == ["mum", "milk"] and items(board)[-1] == "card"


def test_a_card_removed_while_it_is_dragged_cancels_that_drag_and_commits_nothing(server):
    async def go():
        a, b = await session(server), await session(server)
        await long_press_drag(a, 50, MILK_Y, MILK_Y + 100, release=False)
        status, _, body = await asyncio.to_thread(call, server, "DELETE", "/api/boards/demo/items/milk", None, 0)
        assert status == 200 and body["version"] == 1
        got = await recv_until(a, lambda m: m["t"] == "drop")
        assert got[-1]["t"] == "drop" and got[-1]["id"] == "milk" and got[-1]["cancelled"] is True, got
        # The drop goes at once; the commit once the edit is durable.
        got += await recv_until(a, lambda m: m["t"] == "commit")
        assert commit_of(got, 1)["change"] == {"edit": "removeItem", "id": "milk"}
        assert commit_of(await recv_until(b, lambda m: m["t"] == "commit"), 1)
        # Letting go afterwards commits nothing.
        await a.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MILK_Y + 100, "ms": 0}))
        # The proof: the up's answers all come before the pong, and the board the server
        # holds (commits not yet durable included) is still at version 1.
        later = await until_pong(a)
        assert not any(m["t"] in ("commit", "drop") for m in later), later
        assert await live_version(server) == 1
        await a.close(); await b.close()

    run(go())
    board = server.board()
    assert board["version"] == 1 and "milk" not in items(board)


def test_a_stale_if_match_gets_409_with_the_current_version_and_changes_nothing(server):
    assert call(server, "PATCH", "/api/boards/demo/items/milk", {"label": "Oat milk"}, 0)[0] == 200
    status, headers, body = call(server, "PATCH", "/api/boards/demo/items/milk", {"label": "Soy milk"}, 0)
    assert status == 409 and body["error"]["code"] == "version_mismatch" and body["error"]["version"] == 1
    assert headers["etag"] == '"1"'
    status, _, body = call(server, "DELETE", "/api/boards/demo/items/milk")
    assert status == 400 and body["error"]["code"] == "if_match_required"
    board = server.board()
    assert board["version"] == 1
    assert [i["label"] for s in board["sections"] for i in s["items"] if i["id"] == "milk"] == ["Oat milk"]


def test_writes_without_the_admin_token_get_401_and_change_nothing(server, tmp_path):
    for token in (None, "wrong", "admin"):
        status, _, body = call(server, "POST", "/api/boards/demo/items", {"id": "x"}, 0, token=token)
        assert status == 401 and body["error"]["code"] == "unauthorized"
    assert server.board()["version"] == 0
    # A server started without --admin-token takes no writes at all.
    plain = RunningServer(data_dir=tmp_path / "plain").start()
    try:
        status, _, body = call(plain, "DELETE", "/api/boards/demo/items/milk", None, 0)
        assert status == 401 and "--admin-token" in body["error"]["message"]
        assert "milk" in items(plain.board())
    finally:
        plain.stop()


def test_bad_writes_get_clear_errors_and_the_server_goes_on(server):
    cases = [
        ("POST", "/api/boards/nope/items", {"id": "x"}, 404, "board_not_found"),
        ("PATCH", "/api/boards/demo/items/nope", {"label": "x"}, 404, "item_not_found"),
        ("DELETE", "/api/boards/demo/sections/nope", None, 404, "section_not_found"),
        ("POST", "/api/boards/demo/items", {"id": "milk"}, 409, "item_exists"),
        ("POST", "/api/boards/demo/items", {"id": "x", "section": "nope"}, 404, "section_not_found"),
        ("DELETE", "/api/boards/demo/sections/todo", None, 409, "section_not_empty"),
        ("POST", "/api/boards/demo/sections", {"id": "todo"}, 409, "section_exists"),
        ("PATCH", "/api/boards/demo/items/milk", {"height": -3}, 400, "bad_request"),
        ("PATCH", "/api/boards/demo/items/milk", {"colour": "red"}, 400, "bad_request"),
        ("POST", "/api/boards/demo/items", [1, 2], 400, "bad_request"),
        ("PUT", "/api/boards/demo/items/milk", {"label": "x"}, 405, "method_not_allowed"),
        ("POST", "/api/boards/demo/elsewhere", {}, 404, "not_found"),
    ]
    for method, path, body, status, code in cases:
        got_status, _, got = call(server, method, path, body, 0)
        assert (got_status, got["error"]["code"]) == (status, code), (method, path, got)
    status, _, got = call(server, "PATCH", "/api/boards/demo/items/milk", None, 0, raw=b'{"label": ')
    assert status == 400 and got["error"]["code"] == "bad_request"
    status, _, got = call(server, "PATCH", "/api/boards/demo/items/milk", None, 0, raw=b'{"label":"' + b"a" * (2 << 20) + b'"}')
    assert status == 413 and got["error"]["code"] == "too_large"
    assert server.board()["version"] == 0
    assert call(server, "PATCH", "/api/boards/demo/items/milk", {"label": "still serving"}, 0)[:1] == (200,)


def test_edits_are_stored_like_drops_and_a_restart_keeps_them(server):
    steps = [
        ("POST", "/api/boards/demo/sections", {"id": "later", "title": "Later"}),
        ("PATCH", "/api/boards/demo/sections/later", {"title": "Some day"}),
        ("POST", "/api/boards/demo/items", {"id": "kite", "label": "Fly a kite", "section": "later", "height": 80}),
        ("POST", "/api/boards/demo/items", {"id": "first", "label": "First thing", "section": "todo", "after": None}),
        ("PATCH", "/api/boards/demo/items/mum", {"label": "Call mum back", "movable": False}),
        ("DELETE", "/api/boards/demo/items/plants", None),
        ("POST", "/api/boards/demo/sections", {"id": "gone", "after": None}),
        ("DELETE", "/api/boards/demo/sections/gone", None),
    ]
    for v, (method, path, body) in enumerate(steps):
        status, _, got = call(server, method, path, body, v)
        assert status in (200, 201) and got["version"] == v + 1, (method, path, got)
    before = server.board()
    assert before["version"] == len(steps)
    server.stop()
    server.start()
    after = server.board()
    assert after == before
    assert items(after)[:2] == ["first", "milk"] and "plants" not in items(after)
    later = next(s for s in after["sections"] if s["id"] == "later")
    assert later["title"] == "Some day" and later["items"][0]["height"] == 80
    mum = next(i for s in after["sections"] for i in s["items"] if i["id"] == "mum")
    assert mum["label"] == "Call mum back" and mum["movable"] is False

    async def go():
        # A new session starts from the edited board and its drop lands on top of the edits.
        ws = await websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5)
        await ws.send(json.dumps(HELLO))
        layout = (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]
        assert layout["version"] == len(steps)
        assert {c["id"] for c in layout["cells"]} >= {"first", "kite"}
        await long_press_drag(ws, 50, MILK_Y, MILK_Y + 60)
        c = (await recv_until(ws, lambda m: m["t"] == "commit"))[-1]
        assert c["t"] == "commit" and c["version"] == len(steps) + 1 and c["change"]["id"] == "first"
        await ws.close()

    run(go())


def test_with_postgresql_an_edit_on_one_process_reaches_a_session_on_another_and_both_restart_with_it(postgres, tmp_path):
    url = postgres.create_database()

    def start(name):
        return RunningServer("--store", url, "--admin-token", ADMIN, data_dir=tmp_path / name).start()

    a, b = start("a"), start("b")
    try:
        async def go():
            ws = await session(b)
            # b's session drags milk while a process it does not share memory with edits the board.
            await long_press_drag(ws, 50, MILK_Y, MILK_Y + 100, release=False)
            status, _, body = await asyncio.to_thread(
                call, a, "POST", "/api/boards/demo/items", {"id": "order-17", "label": "Order 17", "section": "doing"}, 0)
            assert status == 201 and body["version"] == 1
            edit = commit_of(await recv_until(ws, lambda m: m["t"] == "commit"), 1)
            assert edit and edit["change"]["edit"] == "addItem" and edit["change"]["item"]["id"] == "order-17"
            await ws.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MILK_Y + 100, "ms": 0}))
            drop = commit_of(await recv_until(ws, lambda m: m["t"] == "commit"), 2)
            assert drop and drop["change"]["id"] == "milk" and drop["change"]["after"] == "mum"
            # The drop made on b stales If-Match 1 on a, whether a has heard of it yet or not (the
            # store checks the version under the board's lock).
            status, _, body = await asyncio.to_thread(call, a, "DELETE", "/api/boards/demo/items/order-17", None, 1)
            assert status == 409 and body["error"]["code"] == "version_mismatch"
            await ws.close()

        run(go())
        a.stop(), b.stop()
        a.start(), b.start()
        for s in (a, b):
            board = s.board()
            assert board["version"] == 2 and items(board, "doing")[-1] == "order-17" and items(board)[:2] == ["mum", "milk"]
    finally:
        a.stop(), b.stop()


KITCHEN = {"id": "kitchen", "sections": [
    {"id": "orders", "title": "Orders", "items": [{"id": "o1", "label": "Order 1"}, {"id": "o2", "label": "Order 2"}]},
]}


def test_a_board_created_replaced_and_deleted_through_the_api_is_what_sessions_and_restarts_see(server):
    status, _, body = call(server, "POST", "/api/boards", KITCHEN)
    assert status == 201 and body["version"] == 0
    assert call(server, "POST", "/api/boards", KITCHEN)[2]["error"]["code"] == "board_exists"
    assert call(server, "POST", "/api/boards", {"id": "bad", "sections": [{"id": "s", "items": [{"id": "x"}, {"id": "x"}]}]})[0] == 400
    server.stop()
    server.start()
    assert items(server.board("kitchen"), "orders") == ["o1", "o2"]
    colour_of_o1 = server.board("kitchen")["sections"][0]["items"][0]["color"]

    replacement = {"id": "kitchen", "sections": [
        {"id": "orders", "title": "Open orders", "items": [{"id": "o3", "label": "Order 3"}, {"id": "o2", "label": "Order 2, no onions"}]},
        {"id": "served", "title": "Served", "items": [{"id": "o1", "label": "Order 1"}]},
    ]}

    async def go():
        ws = await websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5)
        await ws.send(json.dumps(dict(HELLO, board="kitchen")))
        assert (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]["version"] == 0
        status, _, body = await asyncio.to_thread(call, server, "PUT", "/api/boards/kitchen", replacement, 0)
        assert status == 200, body
        final = body["version"]
        got = await recv_until(ws, lambda m: m["t"] == "commit" and m["version"] == final)
        commits = [m for m in got if m["t"] == "commit"]
        assert [c["version"] for c in commits] == list(range(1, final + 1))
        assert commits[-1]["order"] == [{"section": "orders", "items": ["o3", "o2"]}, {"section": "served", "items": ["o1"]}]
        replaced = await asyncio.to_thread(server.board, "kitchen")
        o1 = replaced["sections"][1]["items"][0]
        assert o1["id"] == "o1" and o1["color"] == colour_of_o1  # given without a color: keeps its own
        kinds = {c["change"].get("edit", "move") for c in commits}
        assert {"addSection", "addItem", "updateItem", "renameSection", "move"} <= kinds, kinds
        # A replace that edits cannot express is refused whole.
        status, _, body = await asyncio.to_thread(call, server, "PUT", "/api/boards/kitchen",
                                                  dict(replacement, layout="grid"), final)
        assert status == 409 and body["error"]["code"] == "cannot_replace"
        status, _, body = await asyncio.to_thread(call, server, "DELETE", "/api/boards/kitchen", None, final)
        assert status == 200
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(ws.recv(), 5)
        assert closed.value.rcvd.code == 4404
        return final

    final = run(go())
    assert server.get("/api/boards/kitchen")[0] == 404
    server.stop()
    server.start()
    assert server.get("/api/boards/kitchen")[0] == 404
    assert call(server, "POST", "/api/boards", KITCHEN)[0] == 201
    assert server.board("kitchen")["version"] == 0 and final > 0


def test_history_lists_drops_and_edits_with_author_time_and_change_page_by_page(server):
    async def go():
        ws = await session(server)
        await long_press_drag(ws, 50, MILK_Y, MILK_Y + 100)
        drop = (await recv_until(ws, lambda m: m["t"] == "commit"))[-1]
        assert drop["version"] == 1
        await ws.close()
        return drop

    drop = run(go())
    assert call(server, "POST", "/api/boards/demo/items", {"id": "card", "section": "doing"}, 1)[0] == 201
    assert call(server, "DELETE", "/api/boards/demo/items/card", None, 2)[0] == 200
    status, _, body = server.get("/api/boards/demo/history")
    h = json.loads(body)
    assert status == 200 and h["board"] == "demo" and h["more"] is False
    assert [v["version"] for v in h["versions"]] == [1, 2, 3]
    assert h["versions"][0]["by"] == drop["by"] and h["versions"][0]["change"] == drop["change"]
    assert [v["by"] for v in h["versions"][1:]] == ["api", "api"]
    assert h["versions"][1]["change"]["edit"] == "addItem" and h["versions"][2]["change"] == {"edit": "removeItem", "id": "card"}
    assert all(v["at"] > 1.6e12 for v in h["versions"])
    page = json.loads(server.get("/api/boards/demo/history?since=1&limit=1")[2])
    assert [v["version"] for v in page["versions"]] == [2] and page["more"] is True
    assert server.get("/api/boards/demo/history?limit=0")[0] == 400
    assert server.get("/api/boards/nope/history")[0] == 404


def test_undo_reverts_the_sessions_last_drop_for_everyone_and_refuses_once_the_item_moved(server):
    async def go():
        a, b = await session(server), await session(server)
        await long_press_drag(a, 50, MILK_Y, MILK_Y + 100)
        assert commit_of(await recv_until(a, lambda m: m["t"] == "commit"), 1)
        await recv_until(b, lambda m: m["t"] == "commit")
        await a.send(json.dumps({"t": "undo", "ms": 0}))
        undone = commit_of(await recv_until(a, lambda m: m["t"] == "commit"), 2)
        assert undone and undone["change"]["id"] == "milk" and undone["change"]["after"] is None, undone
        assert commit_of(await recv_until(b, lambda m: m["t"] == "commit"), 2)["change"] == undone["change"]
        # Nothing left to undo.
        await a.send(json.dumps({"t": "undo", "ms": 0}))
        err = (await recv_until(a, lambda m: m["t"] == "error"))[-1]
        assert err["t"] == "error" and err["code"] == "cannot_undo"
        # a drops milk again; b then moves it; a's undo is refused and changes nothing.
        await long_press_drag(a, 50, MILK_Y, MILK_Y + 100)
        assert commit_of(await recv_until(a, lambda m: m["t"] == "commit"), 3)
        await recv_until(b, lambda m: m["t"] == "commit")
        await long_press_drag(b, 50, 137, 300)  # milk sits at 89-145 now (mum is 96 tall above it: 32-128, milk 129-185)
        await recv_until(b, lambda m: m["t"] == "commit")
        await recv_until(a, lambda m: m["t"] == "commit" and m["version"] == 4)
        await a.send(json.dumps({"t": "undo", "ms": 0}))
        got = await recv_until(a, lambda m: m["t"] in ("error", "commit"))
        assert got[-1]["t"] == "error" and got[-1]["code"] == "cannot_undo", got
        await a.close(); await b.close()

    run(go())
    h = json.loads(server.get("/api/boards/demo/history")[2])
    assert [v["version"] for v in h["versions"]] == [1, 2, 3, 4]


def test_the_admin_undo_reverts_the_boards_last_commit_drop_or_edit_for_every_session(server):
    async def go():
        a, b = await session(server), await session(server)
        await long_press_drag(a, 50, MILK_Y, MILK_Y + 100)
        assert commit_of(await recv_until(a, lambda m: m["t"] == "commit"), 1)
        await recv_until(b, lambda m: m["t"] == "commit")
        assert call(server, "POST", "/api/boards/demo/undo", None, 1, token=None)[0] == 401
        assert call(server, "POST", "/api/boards/demo/undo", None, 0)[2]["error"]["code"] == "version_mismatch"
        status, _, body = await asyncio.to_thread(call, server, "POST", "/api/boards/demo/undo", None, 1)
        assert status == 200 and body["version"] == 2
        for ws in (a, b):
            c = commit_of(await recv_until(ws, lambda m: m["t"] == "commit"), 2)
            assert c and c["by"] == "api" and c["change"]["id"] == "milk" and c["change"]["after"] is None
        await a.close(); await b.close()

    run(go())
    assert items(server.board())[:2] == ["milk", "mum"]
    assert call(server, "PATCH", "/api/boards/demo/items/mum", {"label": "Call mum tonight"}, 2)[0] == 200
    assert call(server, "POST", "/api/boards/demo/undo", None, 3)[0] == 200
    mum = next(i for s in server.board()["sections"] for i in s["items"] if i["id"] == "mum")
    assert mum["label"] == "Call mum" and server.board()["version"] == 4
    server.stop()
    server.start()
    status, _, body = call(server, "POST", "/api/boards/demo/undo", None, 4)
    assert status == 409 and body["error"]["code"] == "cannot_undo"
