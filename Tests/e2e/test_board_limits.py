"""One validation for boards wherever they come from (issue 22): `--boards` files are held to
the API's limits on ids and text and their number of sections (not their size: see
test_big_board.py), refused at start with the file and the field named; two files with one
board id are an error at start; a board already in the store that breaks the limits is reported
at start and still served."""
import json
import sqlite3
import subprocess
import urllib.request

import pytest

from conftest import ADMIN
from liftboard_server import RunningServer


def board(board_id="kitchen", label="Milk", sections=None):
    return {"id": board_id, "sections": sections or [{"id": "todo", "title": "To do", "items": [{"id": "milk", "label": label}]}]}


def serve_boards(liftboard, tmp_path, files):
    folder = tmp_path / "boards"
    folder.mkdir()
    for name, content in files.items():
        (folder / name).write_text(json.dumps(content))
    return subprocess.run([liftboard, "serve", "--port", "0", "--boards", str(folder), "--data", str(tmp_path / "data")],
                          capture_output=True, text=True, timeout=30), folder


@pytest.mark.parametrize("content, field", [
    (board(label="x" * 10_000_000), "sections[0].items[0].label: 10000000 bytes, longer than 1024"),
    (board(board_id="k" * 10_000), "id: a board id is 1 to 256"),
    (board(board_id=".."), "id: a board id"),
    (board(board_id="a/b"), "id: a board id"),
    (board(sections=[{"id": "s" * 300, "items": []}]), "sections[0].id: 300 bytes, longer than 256"),
    (board(sections=[{"id": "s", "title": "t" * 1025, "items": []}]), "sections[0].title: 1025 bytes, longer than 1024"),
    (board(sections=[{"id": f"s{k}", "items": []} for k in range(1001)]), "sections: 1001 sections, more than 1000"),
])
def test_a_board_file_past_a_limit_is_refused_at_start_with_its_file_and_field(liftboard, tmp_path, content, field):
    out, folder = serve_boards(liftboard, tmp_path, {"a.json": content})
    assert out.returncode == 2, out.stderr[-2000:]
    assert f"invalid board {folder}/a.json: {field}" in out.stderr, out.stderr[-2000:]


def test_two_board_files_with_one_id_are_refused_at_start(liftboard, tmp_path):
    out, folder = serve_boards(liftboard, tmp_path, {"a.json": board(), "b.json": board(label="Other milk")})
    assert out.returncode == 2
    assert f'two board files give board "kitchen": {folder}/a.json and {folder}/b.json' in out.stderr, out.stderr


def test_the_api_refuses_a_board_past_a_limit_as_the_files_are(tmp_path):
    s = RunningServer("--admin-token", ADMIN, data_dir=tmp_path / "data").start()
    try:
        req = urllib.request.Request(f"{s.http}/api/boards", method="POST", data=json.dumps(board(label="x" * 2000)).encode(),
                                     headers={"Authorization": f"Bearer {ADMIN}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(req, timeout=5)
        assert refused.value.code == 400
        err = json.loads(refused.value.read())["error"]
        assert err["code"] == "bad_request" and err["message"].startswith("sections[0].items[0].label: 2000 bytes"), err
    finally:
        s.stop()


def test_a_board_in_the_store_past_a_limit_is_reported_at_start_and_still_served(tmp_path):
    data = tmp_path / "data"
    s = RunningServer(data_dir=data).start()
    s.stop()
    # Made before the limits existed (here: written straight into the store).
    with sqlite3.connect(data / "liftboard.sqlite") as db:
        assert db.execute("UPDATE items SET label = ? WHERE board = 'demo' AND id = 'milk'", ("m" * 5000,)).rowcount == 1
    s.start()
    try:
        reports = [line for line in s.lines if "breaks the board limits" in line]
        assert len(reports) == 1 and "demo" in reports[0] and "sections[0].items[0].label: 5000 bytes" in reports[0], s.lines
        served = s.board()
        assert served["sections"][0]["items"][0]["label"] == "m" * 5000
    finally:
        s.stop()
