"""Sessions run on the client's clock: a server saturated by `liftboard load` (hundreds of
sessions, each reading its `down` and the moves after it in late bursts) still decides every
press the way the client timed it, and each recording replays to what the server committed."""
import json
import subprocess
import urllib.request

from liftboard_server import RunningServer

SESSIONS = 300
# Three times the page's 60 Hz: enough to saturate the debug server on any machine we run on
# (at 60 Hz a faster server kept up, with moves acknowledged in 100 ms).
RATE = 180
# Every session starts at once (`--start in-phase`): the herd of downs and moves is what
# saturates the server; spread over a cycle (the load generator's default) it keeps up better.
START = "in-phase"


def test_a_saturated_server_turns_no_drag_into_a_pan_and_its_recordings_replay_to_its_commits(tmp_path, liftboard):
    boards, rec = tmp_path / "boards", tmp_path / "rec"
    subprocess.run([liftboard, "load", "--write-boards", str(boards), "--sessions", str(SESSIONS)], check=True, timeout=30)
    s = RunningServer("--boards", str(boards), "--record", str(rec), data_dir=tmp_path / "data").start()
    try:
        out = subprocess.run([liftboard, "load", "--url", s.ws, "--sessions", str(SESSIONS), "--seconds", "3", "--rate", str(RATE),
                              "--start", START, "--json"],
                             capture_output=True, text=True, timeout=180)
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        # The scenario needs a server that answers late: moves acknowledged a quarter second
        # or more after they were sent (the press decision window is 500 ms).
        assert report["p50us"] > 250_000, f"the server was not saturated: {report}"
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
            lifts = sum(1 for m in out_lines if m["t"] == "lift")
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
        s.stop()
