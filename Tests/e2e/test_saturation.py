"""Sessions run on the client's clock: a server that reads its sessions late and in bursts (the
down and the moves after it together, as a saturated server does) still decides every press the
way the client timed it, and each recording replays to what the server committed.

The lateness is made, not hoped for: the sessions go through the delaying proxy
(Tests/tools/delay_proxy.py), which holds every byte towards the server DELAY_MS, then to the
next multiple of BURST_MS, so the server reads each connection in bursts BURST_MS apart on any
machine, quick or slow. (Saturating the server with more sessions than it can serve made the
same bursts only on a slow enough machine: a quicker one kept up and the test failed.)"""
import json
import pathlib
import subprocess
import sys
import urllib.request

from liftboard_server import RunningServer

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
from delay_proxy import DelayProxy  # noqa: E402

SESSIONS = 30
RATE = 60
# Each way: every move is acknowledged at least 2 x DELAY_MS after it was sent.
DELAY_MS = 100
# Towards the server, bytes wait for the next multiple of this: a down and the moves up to
# 400 ms after it reach the server together, late by up to 500 ms (the long press is 500 ms).
BURST_MS = 400
# Every session starts at once: their downs come in the same bursts.
START = "in-phase"


def test_a_server_reading_late_bursts_turns_no_drag_into_a_pan_and_its_recordings_replay_to_its_commits(tmp_path, liftboard):
    boards, rec = tmp_path / "boards", tmp_path / "rec"
    subprocess.run([liftboard, "load", "--write-boards", str(boards), "--sessions", str(SESSIONS)], check=True, timeout=30)
    s = RunningServer("--boards", str(boards), "--record", str(rec), data_dir=tmp_path / "data").start()
    proxy = DelayProxy("127.0.0.1", s.port, DELAY_MS, burst_ms=BURST_MS).start()
    try:
        out = subprocess.run([liftboard, "load", "--url", f"ws://127.0.0.1:{proxy.port}/ws", "--sessions", str(SESSIONS), "--seconds", "3", "--rate", str(RATE),
                              "--start", START, "--json"],
                             capture_output=True, text=True, timeout=180)
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        # The sessions went through the proxy: no move came back sooner than its round trip.
        assert report["p50us"] >= 2 * DELAY_MS * 1000, f"the load did not go through the proxy: {report}"
        assert report["errors"] == 0, report
        checked = drags = 0
        for stream in sorted(rec.glob("s*.jsonl")):
            lines = [json.loads(l) for l in stream.read_text().splitlines()]
            downs = sum(1 for m in lines if m["t"] == "down")
            ups = sum(1 for m in lines if m["t"] == "up")
            board_id = lines[0]["board"]
            r = subprocess.run([liftboard, "replay", "--board", str(stream.with_suffix("").with_suffix(".board.json")), str(stream)],
                               capture_output=True, text=True, timeout=30)
            assert r.returncode == 0, r.stderr
            out_lines = [json.loads(l) for l in r.stdout.splitlines()]
            # The load client asks for events inline, as the page does, and the recording keeps
            # that: its replay's lifts ride in frames.
            lifts = sum(1 for m in out_lines for e in [m, *(m.get("events", []) if m["t"] == "frame" else [])] if e["t"] == "lift")
            commits = [m for m in out_lines if m["t"] == "commit"]
            # Every press the load client held for 540 ms lifted, and every drag committed.
            assert lifts == downs, (stream.name, downs, lifts)
            assert len(commits) == ups, (stream.name, ups, len(commits))
            with urllib.request.urlopen(f"{s.http}/api/boards/{board_id}", timeout=10) as resp:
                live = json.loads(resp.read())
            assert live["version"] == len(commits), (stream.name, live["version"], len(commits))
            if commits:
                assert [o["items"] for o in commits[-1]["order"]] == [o["items"] for o in live["order"]], stream.name
            checked += 1
            drags += ups
        assert checked == SESSIONS and drags >= SESSIONS
    finally:
        proxy.stop()
        s.stop()
