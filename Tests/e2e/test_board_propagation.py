"""Several processes on one PostgreSQL serve the boards the database has: a board created
through one process is served by the others at once (a hello that names it waits for the
shared store's answer rather than being refused), a board deleted through one is deleted on
all (their sessions closed with 4404), and a board created while a process's listener was
cut off is still found."""
import asyncio
import json
import urllib.error
import urllib.request

import pytest
import websockets

from conftest import ADMIN
from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until
from pg_fixture import wait_until

KITCHEN = {"id": "kitchen", "sections": [{"id": "orders", "title": "Orders", "items": [
    {"id": "o1", "label": "Order 1"}, {"id": "o2", "label": "Order 2"}, {"id": "o3", "label": "Order 3"}]}]}


def run(coro, timeout=60):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def call(server, method, path, body=None, version=None):
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {ADMIN}"}
    if version is not None:
        headers["If-Match"] = f'"{version}"'
    req = urllib.request.Request(server.http + path, data=json.dumps(body).encode() if body is not None else None, method=method,
                                 headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def pg_server(tmp_path, url, name):
    return RunningServer("--store", url, "--admin-token", ADMIN, data_dir=tmp_path / name).start()


async def hello(server, board):
    ws = await websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5)
    await ws.send(json.dumps(dict(HELLO, board=board)))
    got = await recv_until(ws, lambda m: m["t"] in ("layout", "error"))
    return ws, got[-1]


@pytest.fixture
def two(postgres, tmp_path):
    url = postgres.create_database()
    a, b = pg_server(tmp_path, url, "a"), pg_server(tmp_path, url, "b")
    yield a, b
    a.stop(), b.stop()


def test_a_board_created_on_one_process_is_served_by_the_other_at_once_and_their_drags_meet(two):
    a, b = two
    async def go():
        status, body = await asyncio.to_thread(call, a, "POST", "/api/boards", KITCHEN)
        assert status == 201, body
        # Straight after the 201, before B can have read any notification.
        wb, first = await hello(b, "kitchen")
        assert first["t"] == "layout" and first["version"] == 0, first
        assert "kitchen" in {x["id"] for x in json.loads(b.get("/api/boards")[2])["boards"]}
        wa, _ = await hello(a, "kitchen")
        # o1 (row 0) dragged below o2 on B; A's session sees the commit.
        await long_press_drag(wb, 50, 60, 137 + 5)
        got = await recv_until(wa, lambda m: m["t"] == "commit")
        assert got[-1]["version"] == 1 and got[-1]["order"][0]["items"][:2] == ["o2", "o1"]
        await wa.close(), await wb.close()
    run(go())
    # A board nobody created is still refused, at once.
    async def unknown():
        ws, answer = await hello(b, "no-such-board")
        assert answer["t"] == "error" and answer["code"] == "no_board", answer
        await ws.close()
    run(unknown())


def test_a_board_deleted_on_one_process_is_deleted_on_the_other_and_its_sessions_closed_with_4404(two):
    a, b = two
    assert call(a, "POST", "/api/boards", KITCHEN)[0] == 201
    async def go():
        wb, first = await hello(b, "kitchen")
        assert first["t"] == "layout"
        status, body = await asyncio.to_thread(call, a, "DELETE", "/api/boards/kitchen", None, 0)
        assert status == 200, body
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                await asyncio.wait_for(wb.recv(), 5)
        assert closed.value.rcvd.code == 4404
    run(go())
    assert wait_until(lambda: b.get("/api/boards/kitchen")[0] == 404, timeout=5)
    assert "kitchen" not in {x["id"] for x in json.loads(b.get("/api/boards")[2])["boards"]}
    # ... and created again through B, it is served by A.
    assert call(b, "POST", "/api/boards", KITCHEN)[0] == 201
    async def again():
        wa, first = await hello(a, "kitchen")
        assert first["t"] == "layout" and first["version"] == 0
        await wa.close()
    run(again())


def test_a_board_created_while_a_processs_listener_was_cut_off_is_found_after_it_reconnects(postgres, tmp_path):
    url = postgres.create_database()
    a, b = pg_server(tmp_path, url, "a"), pg_server(tmp_path, url, "b")
    try:
        # Cut B's listener off: PostgreSQL ends its connection; B reconnects with backoff.
        postgres.psql(url.rsplit("/", 1)[1], "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                      "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
        assert call(a, "POST", "/api/boards", KITCHEN)[0] == 201
        # B serves it without any session asking for it: from the notification if its listener
        # was back in time, else from comparing the boards once it reconnected.
        assert wait_until(lambda: b.get("/api/boards/kitchen")[0] == 200, timeout=20)
    finally:
        a.stop(), b.stop()
