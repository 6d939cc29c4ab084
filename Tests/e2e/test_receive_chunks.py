"""lws hands the server what a connection reads in chunks of at most `Server.rxBufferSize`
(512 bytes since issue 28, to keep an idle watcher small): a message longer than that, whether
it came as one WebSocket frame or several, must reach the session whole."""
import asyncio
import json

import pytest
import websockets

from liftboard_server import HELLO, RunningServer, recv_until


@pytest.fixture
def server(tmp_path):
    s = RunningServer("--echo", data_dir=tmp_path / "data").start()
    yield s
    s.stop()


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_a_hello_of_several_receive_chunks_in_one_frame_and_a_move_in_fragments_are_read_whole(server):
    async def go():
        async with websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
            # Valid JSON, padded with whitespace to eleven chunks of 512 bytes.
            hello = json.dumps(HELLO).replace("{", "{" + " " * 6_000, 1)
            assert len(hello) > 11 * 512
            await ws.send(hello)
            layout = (await recv_until(ws, lambda m: m["t"] == "layout"))[-1]
            assert layout["t"] == "layout"
            # A touch going down on the first item, sent as three WebSocket fragments of one
            # text message: held, it lifts the item (the server's long-press timer).
            down = json.dumps({"t": "down", "p": 1, "x": 50, "y": 60, "ms": 0, "kind": "touch"}).replace("{", "{" + " " * 1_200, 1)
            third = len(down) // 3
            await ws.send([down[:third], down[third:2 * third], down[2 * third:]])
            got = await recv_until(ws, lambda m: m["t"] in ("lift", "error"))
            assert got[-1]["t"] == "lift" and got[-1]["p"] == 1, got[-1]
    run(go())


def test_the_echo_returns_a_message_many_chunks_long_byte_for_byte(server):
    async def go():
        url = server.ws.replace("/ws", "/echo")
        async with websockets.connect(url, subprotocols=["liftboard.echo"], open_timeout=5) as ws:
            text = "".join(chr(0x41 + (k * 7) % 26) for k in range(20_000))
            await ws.send(text)
            assert await asyncio.wait_for(ws.recv(), 5) == text
    run(go())
