"""A short smoke of `liftboard load` against the real server: it completes without errors and
its report adds up. No times are asserted: performance is measured by scripts/bench."""
import json
import subprocess

from liftboard_server import RunningServer


def test_a_two_second_load_of_a_few_sessions_completes_without_errors(tmp_path, liftboard):
    boards = tmp_path / "boards"
    subprocess.run([liftboard, "load", "--write-boards", str(boards), "--sessions", "3"], check=True, timeout=30)
    s = RunningServer("--echo", "--boards", str(boards), data_dir=tmp_path / "data").start()
    try:
        for extra in ([], ["--echo"]):
            out = subprocess.run([liftboard, "load", "--url", f"ws://127.0.0.1:{s.port}/ws", "--sessions", "3",
                                  "--seconds", "2", "--json", "--server-pid", str(s.proc.pid), *extra],
                                 capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, out.stderr
            r = json.loads(out.stdout)
            assert r["connected"] == 3 and r["errors"] == 0
            assert r["moves"] > 0 and r["received"] > 0 and r["sent"] >= r["moves"]
            if not extra:
                assert r["drops"] >= 1 and r["commits"] == r["drops"]  # every drop committed, none lost
                assert r["serverPeakMemoryKiB"] > 0
    finally:
        s.stop()


def test_bad_flags_are_usage_errors(liftboard):
    r = subprocess.run([liftboard, "load", "--sessions", "0"], capture_output=True, text=True, timeout=10)
    assert r.returncode == 64 and "--sessions" in r.stderr


def test_a_counted_realistic_load_sends_the_same_gestures_every_run_and_every_drop_commits(tmp_path, liftboard):
    boards = tmp_path / "boards"
    subprocess.run([liftboard, "load", "--write-boards", str(boards), "--sessions", "3"], check=True, timeout=30)
    s = RunningServer("--echo", "--boards", str(boards), data_dir=tmp_path / "data").start()
    try:
        reports = []
        for extra in ([], [], ["--echo"], ["--events", "separate"]):
            out = subprocess.run([liftboard, "load", "--url", f"ws://127.0.0.1:{s.port}/ws", "--sessions", "3", "--rate", "120",
                                  "--seconds", "60", "--gestures", "3", "--workload", "realistic", "--seed", "5", "--json", *extra],
                                 capture_output=True, text=True, timeout=90)
            assert out.returncode == 0, out.stderr
            reports.append(json.loads(out.stdout))
        for r in reports:
            assert r["errors"] == 0 and r["workload"] == "realistic"
            assert r["drops"] + r["pans"] == 9  # 3 gestures for each of 3 sessions, then the run ends
            assert r["elapsedSeconds"] < 30
        assert len({r["movesSent"] for r in reports}) == 1 and reports[0]["movesSent"] > 9 * 8
        assert len({(r["drops"], r["pans"]) for r in reports}) == 1
        for r in reports[:2] + reports[3:]:
            assert r["commits"] == r["drops"] and r["moves"] > 0  # every drag ends rows away: every drop commits
    finally:
        s.stop()


def test_bad_workload_and_gesture_flags_are_usage_errors(liftboard):
    for flags in (["--workload", "wander"], ["--gestures", "0"], ["--events", "sometimes"]):
        r = subprocess.run([liftboard, "load", *flags], capture_output=True, text=True, timeout=10)
        assert r.returncode == 64 and flags[0] in r.stderr, flags


def test_watchers_get_every_commit_and_the_report_says_how_fast_and_the_floor(tmp_path, liftboard):
    """`--watchers`: sessions that only watch, on the dragging sessions' board; every commit
    reaches every one of them (none missed), the originator's delay and the send-loop floor
    are reported. No times are asserted."""
    boards = tmp_path / "boards"
    subprocess.run([liftboard, "load", "--write-boards", str(boards), "--sessions", "3", "--sessions-per-board", "3"],
                   check=True, timeout=30)
    s = RunningServer("--boards", str(boards), data_dir=tmp_path / "data").start()
    try:
        out = subprocess.run([liftboard, "load", "--url", f"ws://127.0.0.1:{s.port}/ws", "--sessions", "3", "--watchers", "40",
                              "--rate", "60", "--seconds", "60", "--gestures", "2", "--follow", "quiet", "--commits", "inline", "--json",
                              "--server-pid", str(s.proc.pid)], capture_output=True, text=True, timeout=90)
        assert out.returncode == 0, out.stderr
        r = json.loads(out.stdout)
        assert r["connected"] == 43 and r["errors"] == 0
        assert r["drops"] == 6 and r["commits"] == 6
        assert r["watchers"] == 40 and r["fanoutCommits"] == 6
        assert r["watcherCopiesMissed"] == 0
        assert r["lastWatcherP50us"] > 0 and r["lastWatcherMaxus"] >= r["lastWatcherP99us"] >= r["lastWatcherP50us"]
        assert r["originatorP50us"] > 0 and 0 <= r["originatorBeforeMedianShare"] <= 1
        assert r["sendLoopFloorMs"] > 0
        assert r["serverResidentLaidOutKiB"] > 0 and r["serverResidentEndKiB"] > 0
        # Quiet follow: the reorder workload's moves pass a row each, so nearly all are answered
        # (one before the lift, or one that only follows, may not be).
        assert r["moves"] > 0 and r["moves"] >= 10 * r["movesUnanswered"]
    finally:
        s.stop()
