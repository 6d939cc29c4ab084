"""Rich cells (issue 25) on the real binary: the card's fields (detail, image, badge, tags,
accent) and sections' subtitle and count travel from the board to sessions' layouts and
frames (validated against the schema), through the API's POST and PATCH (with limits), the
change feed's history and a restart; images are served from `--media DIR` at /media/ (then
Public/media/), never from outside it."""
import asyncio
import json
import os
import subprocess

import pytest
import websockets

from conftest import ADMIN, BINARY
from liftboard_server import HELLO, RunningServer, recv_until
from test_edits_api import call, session

CARD = {"detail": "Two litres, semi-skimmed", "image": "/media/milk.svg", "badge": "3",
        "tags": [{"text": "errand", "color": "#f4b400"}, {"text": "shop"}], "accent": "#ff00ff"}


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def item(board, id):
    return next(i for s in board["sections"] for i in s["items"] if i["id"] == id)


def test_the_demo_layout_carries_cards_subtitles_and_counts_as_the_schema_says(admin_server, schema_validator):
    async def go():
        async with websockets.connect(admin_server.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
            await ws.send(json.dumps(HELLO))
            layout = (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]
            schema_validator.validate(layout)
            return layout
    layout = run(go())
    milk = next(c for c in layout["cells"] if c["id"] == "milk")
    assert milk["detail"] and milk["image"].startswith("/media/") and milk["accent"] and milk["tags"][0]["text"]
    counts = {s["id"]: s["count"] for s in layout["sections"]}
    assert counts["todo"] == 8 and counts["done"] == 0
    assert next(s for s in layout["sections"] if s["id"] == "trash")["subtitle"] == "drop to delete"
    # Every image the demo names is served.
    for c in layout["cells"]:
        if "image" in c:
            status, headers, _ = admin_server.get(c["image"])
            assert status == 200 and headers["content-type"].startswith("image/svg+xml"), c["image"]


def test_cards_added_and_patched_through_the_api_reach_a_session_the_history_and_a_restart(admin_server, schema_validator):
    server = admin_server

    async def go():
        ws = await session(server)
        status, _, got = call(server, "POST", "/api/boards/demo/items", {"id": "eggs", "label": "Eggs", **CARD}, 0)
        assert status == 201, got
        frames = await recv_until(ws, lambda m: m["t"] == "frame" and any(c["id"] == "eggs" for c in m.get("cells", [])))
        cell = next(c for c in frames[-1]["cells"] if c["id"] == "eggs")
        schema_validator.validate(frames[-1])
        assert {k: cell[k] for k in CARD} == CARD
        # PATCH: a new badge, the detail taken away (""), the tags replaced; the rest stays.
        status, _, got = call(server, "PATCH", "/api/boards/demo/items/eggs",
                              {"badge": "12", "detail": "", "tags": [{"text": "urgent", "color": "#db4437"}]}, 1)
        assert status == 200 and got["changed"] is True, got
        frames = await recv_until(ws, lambda m: m["t"] == "frame" and any(c["id"] == "eggs" and "label" in c for c in m.get("cells", [])))
        cell = next(c for c in frames[-1]["cells"] if c["id"] == "eggs")
        assert cell["badge"] == "12" and "detail" not in cell and cell["tags"] == [{"text": "urgent", "color": "#db4437"}]
        assert cell["image"] == CARD["image"] and cell["accent"] == CARD["accent"]
        await ws.close()

    run(go())
    eggs = item(server.board(), "eggs")
    assert eggs["badge"] == "12" and "detail" not in eggs and eggs["image"] == CARD["image"]
    status, _, hist = call(server, "GET", "/api/boards/demo/history", token=None)
    changes = [v["change"] for v in hist["versions"]]
    assert changes[0]["item"]["tags"] == CARD["tags"] and changes[1]["badge"] == "12" and changes[1]["detail"] == ""
    server.stop()
    server.start()
    assert item(server.board(), "eggs") == eggs


@pytest.mark.parametrize("body, field", [
    ({"tags": [{"text": f"t{k}"} for k in range(6)]}, "body.tags"),
    ({"badge": "x" * 33}, "body.badge"),
    ({"detail": "x" * 1025}, "body.detail"),
    ({"tags": [{"color": "#fff"}]}, "body.tags[0].text"),
    ({"tags": "red"}, "body.tags"),
    ({"accent": 3}, "body.accent"),
    ({"image": "https://elsewhere.example/x.png"}, "body.image"),
    ({"image": "//elsewhere.example/x.png"}, "body.image"),
])
def test_a_card_past_its_limits_is_refused_naming_the_field_and_changes_nothing(admin_server, body, field):
    status, _, got = call(admin_server, "PATCH", "/api/boards/demo/items/milk", body, 0)
    assert status == 400 and got["error"]["code"] == "bad_request" and field in got["error"]["message"], got
    assert admin_server.board()["version"] == 0


def test_a_board_file_past_a_card_limit_stops_serve_naming_the_file_and_field(tmp_path):
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "b.json").write_text(json.dumps({"id": "b", "sections": [{"id": "s", "items": [
        {"id": "a", "tags": [{"text": "x"}] * 6}]}]}))
    out = subprocess.run([str(BINARY), "serve", "--port", "0", "--boards", str(boards), "--data", str(tmp_path / "d")],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 2 and "sections[0].items[0].tags" in out.stderr and "more than 5" in out.stderr, out.stderr


@pytest.fixture
def media_server(tmp_path):
    media = tmp_path / "media"
    (media / "sub").mkdir(parents=True)
    (media / "photo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>')
    (media / "sub" / "x.png").write_bytes(b"\x89PNG\r\n\x1a\nfake")
    (tmp_path / "secret.txt").write_text("secret")
    os.symlink(tmp_path / "secret.txt", media / "link.txt")
    s = RunningServer("--media", str(media), data_dir=tmp_path / "data").start()
    yield s
    s.stop()


def test_media_serves_its_folder_at_slash_media_then_public_media(media_server):
    status, headers, body = media_server.get("/media/photo.svg")
    assert status == 200 and headers["content-type"].startswith("image/svg+xml") and body.startswith(b"<svg")
    status, headers, _ = media_server.get("/media/sub/x.png")
    assert status == 200 and headers["content-type"] == "image/png"
    # Not in --media: the demo's own images under Public/media/.
    status, _, body = media_server.get("/media/milk.svg")
    assert status == 200 and body.startswith(b"<svg")


@pytest.mark.parametrize("path", ["/media/../secret.txt", "/media/%2e%2e/secret.txt", "/media/..%2fsecret.txt",
                                  "/media/link.txt", "/media/sub/../../secret.txt", "/media/%2e%2e%2f%2e%2e%2fPackage.swift",
                                  "/media/nope.png"])
def test_nothing_outside_the_media_folder_is_served(media_server, path):
    out = subprocess.run(["curl", "-s", "--path-as-is", "-o", "-", "-w", "\n%{http_code}", media_server.http + path],
                         capture_output=True, text=True, timeout=10).stdout
    body, code = out.rsplit("\n", 1)
    assert code == "404" and "secret" not in body and "swift-tools-version" not in body, (path, code, body)


def test_serve_refuses_a_media_folder_that_is_not_there(tmp_path):
    out = subprocess.run([str(BINARY), "serve", "--port", "0", "--media", str(tmp_path / "nope"), "--data", str(tmp_path / "d")],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode != 0 and "--media" in out.stderr


def test_a_sections_subtitle_is_set_and_taken_away_through_patch_and_reaches_a_session(admin_server, schema_validator):
    server = admin_server

    async def go():
        ws = await session(server)
        status, _, got = call(server, "PATCH", "/api/boards/demo/sections/done", {"subtitle": "all of it"}, 0)
        assert status == 200 and got["version"] == 1, got
        frames = await recv_until(ws, lambda m: m["t"] == "frame" and "sections" in m)
        schema_validator.validate(frames[-1])
        done = next(s for s in frames[-1]["sections"] if s["id"] == "done")
        assert done["subtitle"] == "all of it" and done["title"] == "Done"
        status, _, got = call(server, "PATCH", "/api/boards/demo/sections/done", {"subtitle": ""}, 1)
        assert status == 200, got
        frames = await recv_until(ws, lambda m: m["t"] == "frame" and "sections" in m)
        assert "subtitle" not in next(s for s in frames[-1]["sections"] if s["id"] == "done")
        await ws.close()

    run(go())
    status, _, got = call(server, "PATCH", "/api/boards/demo/sections/done", {"title": "Finished", "subtitle": "x"}, 2)
    assert status == 400 and "one at a time" in got["error"]["message"]
    status, _, got = call(server, "PATCH", "/api/boards/demo/sections/nope", {"subtitle": "x"}, 2)
    assert status == 404 and got["error"]["code"] == "section_not_found"
    status, _, hist = call(server, "GET", "/api/boards/demo/history", token=None)
    assert [v["change"] for v in hist["versions"]] == [{"edit": "setSubtitle", "id": "done", "subtitle": "all of it"},
                                                       {"edit": "setSubtitle", "id": "done", "subtitle": ""}]
    # A PUT that changes subtitles is their edits.
    board = server.board()
    put = {k: board[k] for k in ("id", "layout", "list", "grid", "sections")}
    put["sections"][0]["subtitle"] = "this week"
    status, _, got = call(server, "PUT", "/api/boards/demo", put, board["version"])
    assert status == 200, got
    assert server.board()["sections"][0]["subtitle"] == "this week"
