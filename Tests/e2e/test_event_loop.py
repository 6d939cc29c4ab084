"""The service loop: epoll through lws's libuv plugin (the default) and lws's own poll loop
(`LIFTBOARD_EVENT_LOOP=poll`) serve the same: pages, sessions, the server's own timers, the
store thread's wake-ups, the shared listening socket, and a clean stop."""
import asyncio
import json
import os
import signal
import subprocess
import time

import pytest
import websockets

from conftest import BINARY
from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until

MILK_Y, MUM_MID = 60, 137


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def loop_server(tmp_path, loop, *args):
    return RunningServer("--echo", *args, data_dir=tmp_path / "data", env={"LIFTBOARD_EVENT_LOOP": loop}).start()


@pytest.mark.parametrize("loop", ["epoll", "poll"])
def test_each_loop_serves_pages_sessions_timers_commits_and_stops_cleanly(tmp_path, loop):
    s = loop_server(tmp_path, loop)
    try:
        assert any(f"event-loop={loop}" in line for line in s.lines), s.lines
        status, headers, body = s.get("/")
        assert status == 200 and b"<html" in body.lower()
        assert s.get("/healthz")[0] == 200

        async def go():
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"]) as a, \
                    websockets.connect(s.ws, subprotocols=["liftboard.v1"]) as b:
                for ws in (a, b):
                    await ws.send(json.dumps(HELLO))
                    await recv_until(ws, lambda m: m["t"] == "layout")
                # Nothing follows the press: only the server's own timer can lift the cell.
                start = time.monotonic()
                await a.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": MILK_Y, "ms": 0, "kind": "touch"}))
                got = await recv_until(a, lambda m: m["t"] == "lift", timeout=5)
                waited = time.monotonic() - start
                assert got and got[-1]["t"] == "lift", got
                assert 0.45 <= waited <= 1.5, f"lift after {waited:.3f} s for a 500 ms press"
                await a.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MILK_Y, "ms": 0}))
                await recv_until(a, lambda m: m["t"] == "drop", timeout=3)
                # A drop: the store thread makes it durable and wakes the service thread.
                await long_press_drag(a, 50, MILK_Y, MUM_MID + 5)
                mine = await recv_until(a, lambda m: m["t"] == "commit")
                theirs = await recv_until(b, lambda m: m["t"] == "commit")
                assert mine[-1]["t"] == "commit" and theirs[-1]["t"] == "commit"
                assert theirs[-1]["version"] == mine[-1]["version"]
                async with websockets.connect(s.http.replace("http", "ws") + "/echo", subprotocols=["liftboard.echo"],
                                              max_size=None) as echo:
                    for k in range(50):
                        await echo.send(f"message {k}")
                    assert [await echo.recv() for _ in range(50)] == [f"message {k}" for k in range(50)]
                    await echo.send(b"\x01" * 300_000)
                    assert await echo.recv() == b"\x01" * 300_000
                s.proc.send_signal(signal.SIGTERM)
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await asyncio.wait_for(a.recv(), 5)
                assert closed.value.rcvd.code == 1001
        run(go())
        assert s.proc.wait(5) == 0
    finally:
        s.stop()


@pytest.mark.parametrize("loop", ["epoll", "poll"])
def test_each_loop_serves_a_listening_socket_the_server_opened_itself(tmp_path, loop):
    s = loop_server(tmp_path, loop, "--share-port")
    try:
        async def go():
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"]) as ws:
                await ws.send(json.dumps(HELLO))
                assert (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]["t"] == "layout"
        for _ in range(3):
            run(go())
        assert s.get("/healthz")[0] == 200
    finally:
        s.stop()


def test_an_unknown_event_loop_is_refused_before_listening(tmp_path):
    out = subprocess.run([str(BINARY), "serve", "--port", "0", "--data", str(tmp_path / "data")],
                         env={**os.environ, "LIFTBOARD_EVENT_LOOP": "kqueue"}, capture_output=True, text=True, timeout=30)
    assert out.returncode != 0
    assert "LIFTBOARD_EVENT_LOOP=kqueue: expected epoll or poll" in out.stderr
