"""Starts and stops a real `liftboard serve` on an ephemeral loopback port for tests."""
import asyncio
import json
import os
import re
import signal
import subprocess
import threading
import time
import urllib.request

from conftest import BINARY


class RunningServer:
    def __init__(self, *args, data_dir, scheme="http", env=None):
        self.args = [str(BINARY), "serve", "--port", "0", "--data", str(data_dir), *args]
        self.scheme = scheme
        self.env = env
        self.lines = []
        self.proc = None
        self.port = None

    def start(self, timeout=15):
        """Starts the server; a restart listens on the port of the first start."""
        self.lines = []
        args = list(self.args)
        if self.port:
            args[args.index("--port") + 1] = str(self.port)
        env = {**os.environ, **self.env} if self.env else None
        self.proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in list(self.lines):
                m = re.search(r"listen \w+://(?:\[[^\]]+\]|[^:/]+):(\d+)/", line)
                if m:
                    self.port = int(m.group(1))
                    return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited {self.proc.returncode}: {''.join(self.lines)}")
            time.sleep(0.05)
        raise RuntimeError("server did not start: " + "".join(self.lines))

    def _read(self):
        for line in self.proc.stderr:
            self.lines.append(line)

    def stop(self, sig=signal.SIGTERM, timeout=10):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc:
            # Every line the process wrote is read once its stderr ends (it exited): a line
            # absent from `lines` after a stop was not written.
            self.reader.join(5)
        return self.proc.returncode

    def wait_for_line(self, text, timeout=10):
        """The first log line containing `text`, waiting at most `timeout` s for it."""
        end = time.monotonic() + timeout
        while True:
            for line in list(self.lines):
                if text in line:
                    return line
            if time.monotonic() > end:
                raise AssertionError(f"no log line with {text!r} within {timeout} s: {''.join(self.lines[-20:])}")
            time.sleep(0.02)

    def mark_log(self, timeout=10):
        """Has the server write a line of its own and waits until it is read: every line written
        before it has then been read too (one pipe, in order), so a line absent from `lines`
        afterwards was not written, rather than not read yet. The line: a request for a path
        of its own with a Host the server does not answer, refused and logged (`warn refusal`,
        a kind of its own, so never left out by the log's limit). Not with `--allow-host '*'`."""
        path = f"/log-mark-{time.monotonic_ns()}"
        status, _, _ = self.get(path, headers={"Host": "log-mark.invalid"})
        assert status in (400, 403, 421), status
        self.wait_for_line(path, timeout)

    @property
    def http(self):
        return f"{self.scheme}://127.0.0.1:{self.port}"

    @property
    def ws(self):
        return f"{'wss' if self.scheme == 'https' else 'ws'}://127.0.0.1:{self.port}/ws"

    def get(self, path, headers=None, context=None):
        req = urllib.request.Request(self.http + path, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=5, context=context) as r:
                return r.status, dict(r.headers), r.read()
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), e.read()

    def board(self, board_id="demo"):
        status, _, body = self.get(f"/api/boards/{board_id}")
        assert status == 200
        return json.loads(body)


def wait_for(fn, timeout=10.0, interval=0.05, what=None):
    """`fn()` once it is truthy, asked every `interval` s; fails after `timeout` s, saying what
    it waited for and the last value."""
    end = time.monotonic() + timeout
    while True:
        last = fn()
        if last:
            return last
        if time.monotonic() > end:
            raise AssertionError(f"timed out after {timeout} s waiting for {what or 'the condition'}; last value {last!r}")
        time.sleep(interval)


HELLO = {"t": "hello", "v": 1, "board": "demo", "viewport": {"w": 400, "h": 800, "dpr": 1}}


async def recv_until(ws, pred, timeout=5.0):
    """Messages until one satisfies `pred` (inclusive) or the time runs out."""
    out = []
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return out
        try:
            raw = await asyncio.wait_for(ws.recv(), left)
        except asyncio.TimeoutError:
            return out
        m = json.loads(raw)
        out.append(m)
        if pred(m):
            return out


async def long_press_drag(ws, x, y0, y1, steps=10, pointer=1, release=True):
    """A real-time long press (600 ms) and a drag from y0 to y1, as a finger would do it."""
    await ws.send(json.dumps({"t": "down", "p": pointer, "x": x, "y": y0, "ms": 0, "kind": "touch"}))
    lifted = await recv_until(ws, lambda m: m["t"] == "lift", timeout=3)
    assert any(m["t"] == "lift" for m in lifted), lifted
    for k in range(1, steps + 1):
        await ws.send(json.dumps({"t": "move", "p": pointer, "x": x, "y": y0 + (y1 - y0) * k / steps, "ms": 0, "seq": k}))
        await asyncio.sleep(0.016)
    if release:
        await ws.send(json.dumps({"t": "up", "p": pointer, "x": x, "y": y1, "ms": 0}))


async def until_pong(ws, ping_id="after", timeout=5.0):
    """Sends a ping and returns the messages up to its pong: the server answers in order, so
    everything it did about the messages sent before the ping is in them (or was not done).
    Fails when no pong comes within `timeout` s."""
    await ws.send(json.dumps({"t": "ping", "id": ping_id, "ms": 0}))
    got = await recv_until(ws, lambda m: m["t"] == "pong" and m.get("id") == ping_id, timeout)
    assert got and got[-1]["t"] == "pong", f"no pong within {timeout} s: {got[-5:]}"
    return got[:-1]


async def live_version(server, board="demo"):
    """The board's version as the server holds it now, commits not yet durable included: the
    `layout` a new session is given (the HTTP API answers the durable version)."""
    import websockets
    async with websockets.connect(server.ws, subprotocols=["liftboard.v1"]) as ws:
        await ws.send(json.dumps(dict(HELLO, board=board)))
        got = await recv_until(ws, lambda m: m["t"] == "layout")
        assert got and got[-1]["t"] == "layout", f"no layout within 5 s: {got}"
        return got[-1]["version"]


def assert_replays(liftboard, rec, told):
    """Replays the recording in `rec` of the session `told` begins with (its `welcome`) and
    checks that it gives what the session was sent, message for message: the replay's session
    id is `replay` (its own commits' `by` too); pongs are left out of both (a ping after the last recorded line is not
    replayed; a replayed `error`'s `line` too). Returns the recorded stream's text."""
    import subprocess
    session = told[0]["session"]
    stream = (rec / f"{session}.jsonl").read_text()
    out = subprocess.run([liftboard, "replay", "--board", str(rec / f"{session}.board.json"), str(rec / f"{session}.jsonl")],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    replayed = [m for m in (json.loads(line) for line in out.stdout.splitlines()) if m["t"] != "pong"]
    # A replay's `error` names the recording's line it answers (protocol "Errors"); live, none.
    replayed = [{k: v for k, v in m.items() if k != "line"} if m["t"] == "error" else m for m in replayed]
    expected = [dict(m, session="replay") if k == 0 else m for k, m in enumerate(told) if m["t"] != "pong"]
    # The session's own commits are the replay's, `by` its id.
    expected = [dict(m, by="replay") if m["t"] == "commit" and m.get("by") == session else m for m in expected]
    assert replayed[:len(expected)] == expected
    return stream, replayed
