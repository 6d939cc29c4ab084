"""`liftboard test`, `--emit-stream`, `--junit` and `liftboard describe`, through the built
binary: exit statuses, the failure text, JUnit XML, and a live session described and run back."""
import asyncio
import json
import pathlib
import subprocess
import xml.etree.ElementTree as ET

import websockets

from conftest import ROOT
from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until

EXAMPLES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "Examples" / "tests").glob("*.lbtest"))
BOARD = ROOT / "Examples" / "board.json"


def run(liftboard, *args, cwd=ROOT):
    return subprocess.run([liftboard, *map(str, args)], capture_output=True, text=True, timeout=120, cwd=cwd)


def script(tmp_path, name, body, board=BOARD):
    p = tmp_path / name
    p.write_text(f"board {board}\nviewport 400 600\n{body}\n")
    return p


def test_the_examples_pass_and_the_last_line_counts_them(liftboard):
    assert len(EXAMPLES) >= 5
    out = run(liftboard, "test", *EXAMPLES)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1] == f"{len(EXAMPLES)} passed, 0 failed"


def test_a_wrong_order_exits_1_naming_its_line_the_expected_and_the_actual_order(liftboard, tmp_path):
    bad = script(tmp_path, "bad.lbtest", "drag a after b\nexpect order todo: a b c d")
    good = script(tmp_path, "good.lbtest", "drag a after b\nexpect order todo: b a c d")
    out = run(liftboard, "test", good, bad)
    assert out.returncode == 1, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert f"{bad}:4: expect order todo: a b c d" in lines
    assert "  - expected todo: a b c d" in lines
    assert "  + got todo: b a c d" in lines
    assert any("a after b in todo" in l for l in lines)
    assert lines[-1] == "1 passed, 1 failed"


def test_an_unknown_item_or_step_exits_2_with_its_line(liftboard, tmp_path):
    item = script(tmp_path, "item.lbtest", "drag zz after a")
    out = run(liftboard, "test", item)
    assert out.returncode == 2
    assert f'{item}:3: drag: no item "zz" on the board' in out.stdout.splitlines()
    step = script(tmp_path, "step.lbtest", "tap a\nhop a")
    failing = script(tmp_path, "failing.lbtest", "expect commits 3")
    out = run(liftboard, "test", failing, step)
    assert out.returncode == 2  # over 1
    assert f'{step}:4: unknown step "hop"' in out.stdout.splitlines()
    assert out.stdout.splitlines()[-1] == "0 passed, 2 failed"


def test_junit_output_is_junit_xml_with_one_testcase_per_script(liftboard, tmp_path):
    bad = script(tmp_path, "bad.lbtest", "drag a after b\nexpect order todo: a <b> & c")
    broken = script(tmp_path, "broken.lbtest", "hop")
    report = tmp_path / "junit.xml"
    out = run(liftboard, "test", "--junit", report, *EXAMPLES, bad, broken)
    assert out.returncode == 2
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 1
    suite = suites[0]
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == EXAMPLES + [str(bad), str(broken)]
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == (str(len(cases)), "1", "1")
    for c in cases:
        assert c.get("classname")
        assert set(ch.tag for ch in c) <= {"failure", "error"}
    failure = cases[-2].find("failure")
    assert failure.get("message") == "line 4: expect order todo: a <b> & c"
    assert "+ got todo: b a c d" in failure.text
    assert cases[-1].find("error").get("message") == 'line 3: unknown step "hop"'


def commits(messages):
    return [[s["items"] for s in m["order"]] for m in messages if m["t"] == "commit"]


def replay(liftboard, board, stream_path):
    out = run(liftboard, "replay", "--board", board, stream_path)
    assert out.returncode == 0, out.stderr
    return [json.loads(l) for l in out.stdout.splitlines()]


def test_the_emitted_stream_replays_to_the_commits_the_script_expects(liftboard, tmp_path):
    s = script(tmp_path, "s.lbtest", "drag a after d\nexpect order todo: b d c a\ndrag e first in done\nexpect order done: e")
    out = run(liftboard, "test", "--emit-stream", s)
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.splitlines()[:2]
    assert first == f"# board: {BOARD} (liftboard replay --board {BOARD})"
    assert json.loads(second)["t"] == "hello"
    (tmp_path / "s.jsonl").write_text(out.stdout)
    replayed = replay(liftboard, BOARD, tmp_path / "s.jsonl")
    assert not [m for m in replayed if m["t"] == "error"]
    assert commits(replayed) == [[["b", "d", "c", "a"], ["e"], []], [["b", "d", "c", "a"], [], ["e"]]]
    # The same script, the same bytes.
    assert run(liftboard, "test", "--emit-stream", s).stdout == out.stdout


# Two drags down the server's demo board (whatever its items): each drop commits.
FIRST_Y, SECOND_Y = 60, 359


def test_a_described_live_session_runs_back_to_the_orders_it_committed(liftboard, tmp_path):
    rec = tmp_path / "rec"
    s = RunningServer("--record", str(rec), data_dir=tmp_path / "data").start()
    try:
        async def go():
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
                await ws.send(json.dumps(HELLO))
                got = await recv_until(ws, lambda m: m["t"] == "layout")
                session = got[0]["session"]
                await long_press_drag(ws, 50, FIRST_Y, FIRST_Y + 210)
                got += await recv_until(ws, lambda m: m["t"] == "commit")
                await long_press_drag(ws, 50, SECOND_Y, SECOND_Y + 100)
                got += await recv_until(ws, lambda m: m["t"] == "commit" and m["version"] == 2)
                await ws.send(json.dumps({"t": "wheel", "dx": 0, "dy": 40, "ms": 0}))
                await ws.send(json.dumps({"t": "key", "key": "Tab", "ms": 0}))
                got += await recv_until(ws, lambda m: m["t"] == "announce")
                return session, got
        session, live = asyncio.run(asyncio.wait_for(go(), 60))
    finally:
        s.stop()
    live_orders = commits(live)
    assert len(live_orders) == 2

    described = run(liftboard, "describe", rec / f"{session}.jsonl")
    assert described.returncode == 0, described.stderr
    text = described.stdout
    assert text.startswith(f"board {session}.board.json\n")
    lines = text.splitlines()
    drags = [i for i, l in enumerate(lines) if l.startswith("drag ")]
    assert len(drags) == 2, text
    assert all(lines[i + 1].startswith("expect order ") for i in drags)
    assert "\nwheel 0 40\n" in text and "\nkey Tab\n" in text
    path = rec / "described.lbtest"
    path.write_text(text)
    out = run(liftboard, "test", path)
    assert out.returncode == 0, text + out.stdout
    assert out.stdout.splitlines()[-1] == "1 passed, 0 failed"

    emitted = run(liftboard, "test", "--emit-stream", path)
    (rec / "described.jsonl").write_text(emitted.stdout)
    assert commits(replay(liftboard, rec / f"{session}.board.json", rec / "described.jsonl")) == live_orders
