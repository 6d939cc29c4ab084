"""Several `liftboard serve` processes on one private PostgreSQL (Tests/pg_fixture.py), and
store failures survived (PostgreSQL stopped mid-run, SQLite on a full filesystem), driven by
real WebSocket and HTTP clients."""
import asyncio
import json
import os
import signal
import subprocess
import tempfile

import pytest
import websockets

from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until, until_pong
from pg_fixture import wait_until

# Demo board at width 400: milk 32-88 (center 60), mum 89-185 (center 137), plants center 271;
# "Doing" header 587-619.
MILK_Y, MUM_MID, PLANTS_Y = 60, 137, 271


def run(coro, timeout=60):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def connect(server):
    return websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5)


def pg_server(tmp_path, url, name, *args):
    return RunningServer("--store", url, *args, data_dir=tmp_path / name).start()


@pytest.fixture
def two_processes(postgres, tmp_path):
    """A fresh database and two server processes on it: (database url, process a, process b)."""
    url = postgres.create_database()
    a = pg_server(tmp_path, url, "a")
    b = pg_server(tmp_path, url, "b")
    yield url, a, b
    a.stop(), b.stop()


class View:
    """What a client was last told of the committed order: (version, order)."""

    def __init__(self):
        self.version, self.order, self.errors = None, None, []

    def see(self, messages):
        for m in messages:
            if m["t"] == "commit":
                self.version, self.order = m["version"], [s["items"] for s in m["order"]]
            elif m["t"] == "layout":
                ids = [s["id"] for s in m["sections"]]
                order = [[] for _ in ids]
                for c in sorted(m["cells"], key=lambda c: c["index"]):
                    order[ids.index(c["section"])].append(c["id"])
                self.version, self.order = m["version"], order
            elif m["t"] == "error":
                self.errors.append(m["code"])
        return messages


async def hello(ws, view):
    await ws.send(json.dumps(HELLO))
    view.see(await recv_until(ws, lambda m: m["t"] == "layout"))


async def settle(ws, view):
    """Reads what the server has told the client by the time it answers a ping: everything it
    decided before (a store's failure tells every session at once), not what a look of some
    seconds happened to see."""
    view.see(await until_pong(ws))


async def reach(ws, view, version, timeout=10):
    """Reads until the client is told of `version` (a commit or a layout), then settles."""
    got = view.see(await recv_until(ws, lambda m: m["t"] in ("commit", "layout") and m["version"] >= version, timeout))
    assert view.version is not None and view.version >= version, f"not told of v{version} within {timeout} s: {[m['t'] for m in got]}"
    await settle(ws, view)


def api_order(server):
    b = server.board()
    return b["version"], [s["items"] for s in b["order"]]


def test_the_schema_is_created_and_versioned_and_a_second_process_starts_on_it(postgres, two_processes):
    url, a, b = two_processes
    db = url.rsplit("/", 1)[1]
    assert postgres.psql(db, "SELECT version FROM liftboard_schema") == "14"  # StoreSchema.version, as SQLite's user_version
    assert postgres.psql(db, "SELECT count(*) FROM boards") == "3"  # the built-in demo, kanban and outline boards
    for s in (a, b):
        status, _, body = s.get("/healthz")
        assert status == 200 and json.loads(body)["store"] == "up"


def test_two_processes_on_one_board_see_each_others_drags_live(postgres, two_processes):
    url, a, b = two_processes
    async def go():
        va, vb = View(), View()
        async with connect(a) as wa, connect(b) as wb:
            await hello(wa, va), await hello(wb, vb)
            await long_press_drag(wa, 50, MILK_Y, MUM_MID + 5)
            va.see(await recv_until(wa, lambda m: m["t"] == "commit"))
            seen = vb.see(await recv_until(wb, lambda m: m["t"] == "commit"))
            assert seen[-1]["t"] == "commit" and seen[-1]["version"] == 1
            assert any(m["t"] == "frame" for m in seen)  # b's cells animate to the new order
            # and the other way round
            await long_press_drag(wb, 50, PLANTS_Y, MUM_MID + 5)
            vb.see(await recv_until(wb, lambda m: m["t"] == "commit"))
            va.see(await recv_until(wa, lambda m: m["t"] == "commit" and m["version"] == 2))
            assert va.version == vb.version == 2 and va.order == vb.order
            return va.order
    order = run(go())
    assert api_order(a) == api_order(b) == (2, order)
    assert order[0][:2] == ["mum", "plants"] and "milk" in order[0][2:]


def test_drops_at_the_same_instant_on_two_processes_both_land_and_everyone_converges(postgres, two_processes):
    url, a, b = two_processes
    async def go():
        va, vb, va2 = View(), View(), View()
        async with connect(a) as wa, connect(b) as wb, connect(a) as wa2:
            await hello(wa, va), await hello(wb, vb), await hello(wa2, va2)
            # a carries milk below mum, b carries plants to the top of "Doing"; both held
            await asyncio.gather(long_press_drag(wa, 50, MILK_Y, MUM_MID + 5, release=False),
                                 long_press_drag(wb, 50, PLANTS_Y, 271 + 19 * 19, steps=19, release=False))
            # both let go at once
            await asyncio.gather(wa.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MUM_MID + 5, "ms": 0})),
                                 wb.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 271 + 19 * 19, "ms": 0})))
            await asyncio.gather(reach(wa, va, 2), reach(wb, vb, 2), reach(wa2, va2, 2))
            return va, vb, va2
    va, vb, va2 = run(go())
    version, order = api_order(a)
    assert (version, order) == api_order(b)
    assert version == 2, "both drops landed"
    assert order[0][:2] == ["mum", "milk"] and "plants" not in order[0] and order[1][0] == "plants"
    for v in (va, vb, va2):
        assert (v.version, v.order) == (2, order)
        assert "store_unavailable" not in v.errors
    db = url.rsplit("/", 1)[1]
    assert postgres.psql(db, "SELECT string_agg(version::text, ',' ORDER BY version) FROM commits") == "1,2"


RACE_BOARD = {"id": "race", "sections": [
    {"id": "todo", "title": "To do", "items": [{"id": "a"}, {"id": "b"}]},
    {"id": "doing", "title": "Doing", "max": 1, "items": []}]}


def test_two_processes_racing_for_a_columns_last_place_land_one_and_refuse_the_other(postgres, tmp_path):
    """Issue 23: doing takes one item (max 1). A session on each process carries an item into
    it and both let go at once: one lands, the other gets rule_refused and a layout, and the
    column never holds more than one item."""
    url = postgres.create_database()
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "race.json").write_text(json.dumps(RACE_BOARD))
    a = pg_server(tmp_path, url, "a", "--boards", str(boards))
    b = pg_server(tmp_path, url, "b", "--boards", str(boards))
    hello = dict(HELLO, board="race")
    try:
        async def go():
            va, vb = View(), View()
            async with connect(a) as wa, connect(b) as wb:
                sessions = []
                for ws, v in ((wa, va), (wb, vb)):
                    await ws.send(json.dumps(hello))
                    got = await recv_until(ws, lambda m: m["t"] == "layout")
                    v.see(got)
                    sessions.append(got[0]["session"])
                # a (center 60) and b (center 117) each into doing's slot (header 145-177)
                await asyncio.gather(long_press_drag(wa, 50, 60, 200, release=False),
                                     long_press_drag(wb, 50, 117, 200, release=False))
                await asyncio.gather(wa.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 200, "ms": 0})),
                                     wb.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 200, "ms": 0})))

                # Each drop's outcome (its own commit, or an error and the layout after it),
                # then a ping's answer: what the race made the server say is all there, not
                # what a 2.5 s look happened to see.
                async def outcome(ws, session):
                    refused = []

                    def done(m):
                        refused.extend([m] if m["t"] == "error" else [])
                        return (m["t"] == "commit" and m["by"] == session) or (m["t"] == "layout" and bool(refused))
                    got = await recv_until(ws, done, timeout=10)
                    assert got and done(got[-1]), f"no outcome for {session} within 10 s: {[m['t'] for m in got]}"
                    return got + await until_pong(ws)
                got_a, got_b = await asyncio.gather(outcome(wa, sessions[0]), outcome(wb, sessions[1]))
                va.see(got_a), vb.see(got_b)
                return va, vb, got_a, got_b
        va, vb, got_a, got_b = run(go())
        def race_order(server):
            board = server.board("race")
            return board["version"], [s["items"] for s in board["order"]]
        version, order = race_order(a)
        assert (version, order) == race_order(b)
        assert version == 1 and len(order[1]) == 1, order
        refused = [got for got, v in ((got_a, va), (got_b, vb)) if "rule_refused" in v.errors]
        assert len(refused) == 1, (va.errors, vb.errors)
        error = next(m for m in refused[0] if m["t"] == "error")
        assert error["message"] == 'max: section "doing" holds at most 1 item'
        assert any(m["t"] == "layout" for m in refused[0][refused[0].index(error):])
        for v in (va, vb):
            assert (v.version, v.order) == (1, order)
        db = url.rsplit("/", 1)[1]
        assert postgres.psql(db, "SELECT count(*) FROM items WHERE board = 'race' AND section = 'doing'") == "1"
    finally:
        a.stop(), b.stop()


def test_kill_9_of_one_process_mid_drag_leaves_the_other_serving_and_loses_no_acknowledged_commit(postgres, two_processes):
    url, a, b = two_processes
    async def go():
        va, vb = View(), View()
        async with connect(a) as wa, connect(b) as wb:
            await hello(wa, va), await hello(wb, vb)
            await long_press_drag(wa, 50, MILK_Y, MUM_MID + 5)
            acked = va.see(await recv_until(wa, lambda m: m["t"] == "commit"))[-1]
            assert acked["t"] == "commit"
            # a lifts plants and is killed mid-drag
            await long_press_drag(wa, 50, PLANTS_Y, 400, release=False)
            a.stop(sig=signal.SIGKILL)
            # b goes on: it has a's acknowledged commit and commits its own
            await reach(wb, vb, 1)
            assert vb.version == 1 and vb.order == [s["items"] for s in acked["order"]]
            await long_press_drag(wb, 50, MILK_Y, MILK_Y + 150)
            vb.see(await recv_until(wb, lambda m: m["t"] == "commit" and m["version"] == 2))
            assert vb.version == 2
            return acked
    run(go())
    version, order = api_order(b)
    assert version == 2 and "plants" in order[0]  # the drag a never dropped committed nothing
    a.start()  # a restarted process reads the same truth
    assert api_order(a) == (version, order)


def test_postgres_stopped_mid_run_refuses_drops_loses_nothing_and_commits_again_once_back(postgres, tmp_path):
    url = postgres.create_database()
    a = pg_server(tmp_path, url, "a")
    try:
        async def go():
            va, vo = View(), View()
            async with connect(a) as wa, connect(a) as wo:
                await hello(wa, va), await hello(wo, vo)
                await long_press_drag(wa, 50, MILK_Y, MUM_MID + 5)
                va.see(await recv_until(wa, lambda m: m["t"] == "commit"))
                durable = (va.version, va.order)
                postgres.stop("immediate")
                await long_press_drag(wa, 50, PLANTS_Y, MUM_MID + 5)
                got = va.see(await recv_until(wa, lambda m: m["t"] == "error", timeout=10))
                assert got[-1]["t"] == "error" and got[-1]["code"] == "store_unavailable"
                await asyncio.gather(settle(wa, va), settle(wo, vo))
                # both sessions are back on the last durable order
                assert (va.version, va.order) == durable == (vo.version, vo.order)
                status, _, body = a.get("/healthz")
                assert status == 503 and json.loads(body)["store"] == "down"
                postgres.start()
                assert wait_until(lambda: a.get("/healthz")[0] == 200, timeout=20)
                await long_press_drag(wa, 50, PLANTS_Y, MUM_MID + 5)
                va.see(await recv_until(wa, lambda m: m["t"] == "commit" and m["version"] == 2, timeout=10))
                vo.see(await recv_until(wo, lambda m: m["t"] == "commit" and m["version"] == 2))
                assert va.version == vo.version == 2 and va.order == vo.order
                return va.order
        order = run(go())
        assert api_order(a) == (2, order)
        assert a.proc.poll() is None
    finally:
        a.stop()
        if postgres.psql("postgres", "SELECT 1") != "1":
            postgres.start()


def test_sqlite_on_a_full_filesystem_refuses_drops_and_commits_again_once_there_is_room(tmp_path):
    mnt = tempfile.mkdtemp(prefix="liftboard-full-")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt], capture_output=True, text=True)
    if mounted.returncode != 0:
        os.rmdir(mnt)
        pytest.skip(f"cannot mount a small tmpfs to fill (needs root or CAP_SYS_ADMIN): {mounted.stderr.strip()}")
    s = RunningServer(data_dir=mnt + "/data")
    try:
        s.start()
        filler = mnt + "/filler"

        async def go():
            v = View()
            async with connect(s) as ws:
                await hello(ws, v)
                durable = (v.version, v.order)
                # Fill the filesystem with unbuffered writes: a buffered file would try to
                # write its rest again when closed, and raise ENOSPC there.
                fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
                try:
                    while True:
                        os.write(fd, b"\0" * 65536)
                except OSError:
                    pass
                finally:
                    os.close(fd)
                await long_press_drag(ws, 50, MILK_Y, MUM_MID + 5)
                got = v.see(await recv_until(ws, lambda m: m["t"] == "error", timeout=10))
                assert got[-1]["t"] == "error" and got[-1]["code"] == "store_unavailable"
                await settle(ws, v)
                assert (v.version, v.order) == durable
                status, _, body = s.get("/healthz")
                assert status == 503 and json.loads(body)["store"] == "down"
                os.remove(filler)
                assert wait_until(lambda: s.get("/healthz")[0] == 200, timeout=20)
                await long_press_drag(ws, 50, MILK_Y, MUM_MID + 5)
                v.see(await recv_until(ws, lambda m: m["t"] == "commit", timeout=10))
                assert v.version == 1 and v.order[0][:2] == ["mum", "milk"]
        run(go())
        s.stop(sig=signal.SIGKILL)
        s.start()
        assert s.board()["version"] == 1
    finally:
        s.stop()
        subprocess.run(["umount", "-l", mnt], capture_output=True)
        os.rmdir(mnt)


def test_workers_share_one_port_and_their_sessions_see_each_others_commits(postgres, tmp_path):
    url = postgres.create_database()
    from pg_fixture import free_port
    port = free_port()
    s = RunningServer("--store", url, "--workers", "2", data_dir=tmp_path / "w")
    s.args[s.args.index("--port") + 1] = str(port)
    s.start()
    try:
        # the second worker says `listen` on the same pipe once it shares the port
        assert wait_until(lambda: sum(f":{port}/" in l for l in s.lines) == 2, timeout=15), s.lines

        async def go():
            clients, views, tags = [], [], {}
            for _ in range(16):
                ws = await connect(s).__aenter__()
                v = View()
                await ws.send(json.dumps(HELLO))
                got = v.see(await recv_until(ws, lambda m: m["t"] == "layout"))
                tag = got[0]["session"].split("-")[1]
                tags.setdefault(tag, []).append(len(clients))
                clients.append(ws), views.append(v)
            assert len(tags) == 2, f"sessions of both workers: {tags}"
            first, second = (ks[0] for ks in tags.values())
            await long_press_drag(clients[first], 50, MILK_Y, MUM_MID + 5)
            views[first].see(await recv_until(clients[first], lambda m: m["t"] == "commit"))
            views[second].see(await recv_until(clients[second], lambda m: m["t"] == "commit"))
            assert views[second].version == 1 and views[second].order == views[first].order
            for ws in clients:
                await ws.close()
        run(go())
        children = subprocess.run(["pgrep", "-P", str(s.proc.pid)], capture_output=True, text=True).stdout.split()
        assert len(children) == 1
    finally:
        assert s.stop() == 0
    assert wait_until(lambda: all(not os.path.exists(f"/proc/{pid}") for pid in children), timeout=5)


def test_a_drop_raced_by_another_process_is_confirmed_to_everyone_as_commits_in_version_order(postgres, tmp_path, liftboard):
    """Drops at the same instant on two processes: the store writes one second, on top of the
    other. Every client gets both drops as `commit`s in version order (the dropping client its
    own, with its `by`), no `layout` after the first, and all end on one order and version; the
    recording of the client whose drop landed second replays to what it was told."""
    url = postgres.create_database()
    rec = tmp_path / "rec"
    a = pg_server(tmp_path, url, "a", "--record", str(rec))
    b = pg_server(tmp_path, url, "b", "--record", str(rec))
    async def go():
        told = {}
        async def open_session(ws):
            await ws.send(json.dumps(HELLO))
            got = await recv_until(ws, lambda m: m["t"] == "layout")
            return next(m["session"] for m in got if m["t"] == "welcome")
        async with connect(a) as wa, connect(b) as wb, connect(a) as wa2:
            ids = [await open_session(w) for w in (wa, wb, wa2)]
            await asyncio.gather(long_press_drag(wa, 50, MILK_Y, MUM_MID + 5, release=False),
                                 long_press_drag(wb, 50, PLANTS_Y, 271 + 19 * 19, steps=19, release=False))
            await asyncio.gather(wa.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MUM_MID + 5, "ms": 0})),
                                 wb.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 271 + 19 * 19, "ms": 0})))
            # Each client until it has both commits, then until a ping's answer: what the race
            # made the server tell it is all there (not what a 2 s look happened to see).
            async def told_of_both(w):
                got = await recv_until(w, lambda m: m["t"] == "commit" and m["version"] == 2, timeout=10)
                assert got and got[-1]["t"] == "commit", f"no commit v2 within 10 s: {[m['t'] for m in got]}"
                return got + await until_pong(w)
            got = await asyncio.gather(*(told_of_both(w) for w in (wa, wb, wa2)))
            for sid, messages in zip(ids, got):
                told[sid] = messages
        return ids, told
    try:
        (ida, idb, ida2), told = run(go())
        version, order = api_order(a)
        assert (version, order) == api_order(b) and version == 2, "both drops landed"
    finally:
        a.stop(), b.stop()
    raced = [s for s in (a, b) if any(" rebase " in l for l in s.lines)]
    assert raced, "the drops did not race (each process heard of the other's before its own landed)"
    for sid, messages in told.items():
        kinds = [m["t"] for m in messages]
        assert "layout" not in kinds and "error" not in kinds, (sid, kinds)
        commits = [(m["version"], m["by"]) for m in messages if m["t"] == "commit"]
        assert [v for v, _ in commits] == [1, 2], (sid, commits)
        assert {by for _, by in commits} == {ida, idb}, (sid, commits)
        last = [m for m in messages if m["t"] == "commit"][-1]
        assert [s["items"] for s in last["order"]] == order
    # The client whose drop landed second: its cells animate to the other drop's order first.
    second = next(m["by"] for m in told[ida] if m["t"] == "commit" and m["version"] == 2)
    messages = told[second]
    k = next(i for i, m in enumerate(messages) if m["t"] == "commit" and m["version"] == 1)
    assert messages[k - 1]["t"] == "frame" and messages[k - 1].get("cells"), messages[k - 1]
    # Its recording says where the rebase came: the replay tells the same commits (after its
    # own drop's commit at the version it was first given, which the live client never got:
    # it was held until durable, then dropped), and ends on the same order and version.
    stream = (rec / f"{second}.jsonl").read_text()
    assert '"t":"rebase"' in stream
    out = subprocess.run([liftboard, "replay", "--board", str(rec / f"{second}.board.json"), str(rec / f"{second}.jsonl")],
                         capture_output=True, timeout=30)
    assert out.returncode == 0, out.stderr
    replayed = [json.loads(l) for l in out.stdout.decode().splitlines()]
    assert [m["t"] for m in replayed if m["t"] in ("error", "layout")] == ["layout"], "only the first layout"
    replayed_commits = [(m["version"], [s["items"] for s in m["order"]]) for m in replayed if m["t"] == "commit"]
    live_commits = [(m["version"], [s["items"] for s in m["order"]]) for m in messages if m["t"] == "commit"]
    assert replayed_commits[0][0] == 1 and replayed_commits[1:] == live_commits, (replayed_commits, live_commits)
