"""`liftboard replay` run as a user runs it: the built binary on files, exit codes included."""
import json
import pathlib
import random
import subprocess

import pytest

from conftest import GOLDEN, ROOT


def replay(liftboard, board, stream, timeout=60):
    return subprocess.run([liftboard, "replay", "--board", str(board), str(stream)],
                          capture_output=True, timeout=timeout)


def golden_streams():
    return sorted(p for p in GOLDEN.glob("*.jsonl") if not p.name.endswith(".expected.jsonl"))


def board_of(stream):
    first = stream.read_text().splitlines()[0]
    return GOLDEN / "boards" / first.removeprefix("# board: ")


@pytest.mark.parametrize("stream", golden_streams(), ids=lambda p: p.stem)
def test_the_binary_prints_the_golden_output_and_every_line_is_valid(liftboard, schema_validator, stream):
    result = replay(liftboard, board_of(stream), stream)
    assert result.returncode == 0, result.stderr
    assert result.stdout == stream.with_suffix(".expected.jsonl").read_bytes()
    for line in result.stdout.decode().splitlines():
        schema_validator.validate(json.loads(line))


def test_every_stream_line_the_replay_accepted_is_valid_against_the_schema(liftboard, schema_validator):
    checked = 0
    for stream in golden_streams():
        out = replay(liftboard, board_of(stream), stream).stdout.decode().splitlines()
        refused = {json.loads(l)["line"] for l in out if '"line":' in l}
        for number, text in enumerate(stream.read_text().splitlines(), start=1):
            if number in refused or not text.strip() or text.startswith("#"):
                continue
            schema_validator.validate(json.loads(text))
            checked += 1
    assert checked > 100


def test_the_same_input_gives_the_same_bytes(liftboard):
    stream = GOLDEN / "two-pointers.jsonl"
    a = replay(liftboard, board_of(stream), stream)
    b = replay(liftboard, board_of(stream), stream)
    assert a.returncode == 0 and a.stdout == b.stdout and len(a.stdout) > 1000


def test_a_missing_board_or_stream_exits_2_with_a_message(liftboard, tmp_path):
    stream = GOLDEN / "tap.jsonl"
    r = replay(liftboard, tmp_path / "nope.json", stream)
    assert r.returncode == 2 and b"cannot read board" in r.stderr and r.stdout == b""
    r = replay(liftboard, GOLDEN / "boards" / "list.json", tmp_path / "nope.jsonl")
    assert r.returncode == 2 and b"cannot read stream" in r.stderr


def test_an_invalid_board_exits_2_naming_the_field(liftboard, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"id": "d", "sections": [{"id": "s", "items": [{"id": "a", "height": -3}]}]}))
    r = replay(liftboard, bad, GOLDEN / "tap.jsonl")
    assert r.returncode == 2
    assert b"sections[0].items[0].height" in r.stderr


def test_bad_lines_are_reported_with_their_line_and_the_replay_goes_on(liftboard, tmp_path):
    stream = tmp_path / "s.jsonl"
    stream.write_text("\n".join([
        '{"t":"hello","v":1,"board":"demo","viewport":{"w":400,"h":600,"dpr":1}}',
        "# a comment",
        "",
        "{oops",
        '{"t":"ping","id":1,"ms":5}',
    ]) + "\n")
    r = replay(liftboard, GOLDEN / "boards" / "list.json", stream)
    assert r.returncode == 0
    lines = [json.loads(l) for l in r.stdout.decode().splitlines()]
    assert [l["t"] for l in lines] == ["welcome", "layout", "error", "pong"]
    assert lines[2]["line"] == 4 and lines[2]["code"] == "bad_json"


def test_a_stream_with_no_hello_reports_no_hello_and_still_exits_0(liftboard, tmp_path):
    stream = tmp_path / "s.jsonl"
    stream.write_text('{"t":"move","p":1,"x":1,"y":1,"ms":1}\n')
    r = replay(liftboard, GOLDEN / "boards" / "list.json", stream)
    assert r.returncode == 0
    assert json.loads(r.stdout)["code"] == "no_hello"


def test_random_streams_never_crash_and_print_only_schema_valid_lines(liftboard, schema_validator, tmp_path):
    rng = random.Random(7)
    kinds = ["down", "move", "up", "cancel", "wheel", "key", "resize", "ping", "garbage"]
    for n in range(30):
        t = 0
        lines = ['{"t":"hello","v":1,"board":"demo","viewport":{"w":400,"h":600,"dpr":1},"config":{"mode":"%s"}}'
                 % rng.choice(["insert", "swap"])]
        for _ in range(200):
            t += rng.choice([0, 5, 16, 120, 600])
            k = rng.choice(kinds)
            p, x, y = rng.randint(0, 2), rng.uniform(-50, 450), rng.uniform(-50, 650)
            if k in ("down", "move", "up"):
                lines.append(json.dumps({"t": k, "p": p, "x": x, "y": y, "ms": t}))
            elif k == "cancel":
                lines.append(json.dumps({"t": k, "p": p, "ms": t}))
            elif k == "wheel":
                lines.append(json.dumps({"t": k, "dx": 0, "dy": rng.uniform(-500, 500), "ms": t}))
            elif k == "key":
                lines.append(json.dumps({"t": k, "key": rng.choice(["ArrowUp", "ArrowDown", " ", "Escape", "Enter"]), "ms": t}))
            elif k == "resize":
                lines.append(json.dumps({"t": k, "w": rng.uniform(100, 900), "h": rng.uniform(100, 900), "dpr": 2, "ms": t}))
            elif k == "ping":
                lines.append(json.dumps({"t": k, "id": n, "ms": t}))
            else:
                lines.append(rng.choice(['{"t":', "null", '{"t":"move","p":"x"}', '{"t":"move","p":1,"x":NaN}', "\x00\x01"]))
        stream = tmp_path / f"r{n}.jsonl"
        stream.write_text("\n".join(lines) + "\n")
        r = replay(liftboard, GOLDEN / "boards" / "list.json", stream)
        assert r.returncode == 0, r.stderr
        for line in r.stdout.decode().splitlines():
            schema_validator.validate(json.loads(line))
