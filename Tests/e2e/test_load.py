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
