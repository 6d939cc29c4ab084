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
        threading.Thread(target=self._read, daemon=True).start()
        end = time.time() + timeout
        while time.time() < end:
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
        return self.proc.returncode

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
