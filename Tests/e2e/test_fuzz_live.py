"""A bounded WebSocket-level fuzz run against the live server: random bytes, mutated golden
messages, messages out of order, absurd numbers and odd framing. The server must answer every
decodable message's fate without crashing, keep `/healthz` answering, and lose no commit."""
import asyncio
import json
import pathlib
import random

import websockets

from conftest import GOLDEN
from liftboard_server import HELLO, RunningServer

MESSAGES = 4000
SEED = 11


def golden_messages():
    out = []
    for f in sorted(pathlib.Path(GOLDEN).glob("*.jsonl")):
        if f.name.endswith(".expected.jsonl"):
            continue
        out += [l for l in f.read_text().splitlines() if l.strip() and not l.startswith("#")]
    return out


def mutate(rng, seeds):
    kind = rng.randrange(6)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    line = rng.choice(seeds)
    if kind == 1:
        b = bytearray(line.encode())
        for _ in range(rng.randrange(1, 6)):
            b[rng.randrange(len(b))] = rng.choice(b'{}[]",:0-.e9 \x00\xff')
        return bytes(b)
    try:
        msg = json.loads(line)
    except ValueError:
        return line.encode()  # bad-lines.jsonl holds invalid lines on purpose
    if not isinstance(msg, dict) or not msg:
        return line.encode()
    if kind == 2:
        for k in list(msg):
            if isinstance(msg[k], (int, float)) and not isinstance(msg[k], bool):
                msg[k] = rng.choice([1e308, -1e308, 1e7 + 1, -0.0, 2 ** 63, 0.5, -1])
    elif kind == 3:
        msg.pop(rng.choice(list(msg)), None)
    elif kind == 4:
        msg["t"] = rng.choice(["hello", "down", "up", "move", "external", "advance", "nope", 7, None])
    else:
        msg["pad"] = {"deep": [[[[rng.random()]]]] * 3}
    return json.dumps(msg).encode()


def test_thousands_of_fuzzed_messages_never_crash_the_server_and_it_keeps_answering(tmp_path):
    s = RunningServer(data_dir=tmp_path / "data").start()
    rng = random.Random(SEED)
    seeds = golden_messages()
    stats = {"sent": 0, "errors": 0, "closed": 0}

    async def one_connection(count):
        try:
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"], max_size=2 ** 22) as ws:
                if rng.random() < 0.8:
                    await ws.send(json.dumps(HELLO))
                for _ in range(count):
                    m = mutate(rng, seeds)
                    await (ws.send(m) if rng.random() < 0.2 else ws.send(m.decode("utf-8", "replace")))
                    stats["sent"] += 1
                    await asyncio.sleep(0.002)
                while True:
                    reply = await asyncio.wait_for(ws.recv(), 0.5)
                    stats["errors"] += '"t":"error"' in reply
        except (websockets.ConnectionClosed, asyncio.TimeoutError):
            stats["closed"] += 1

    async def go():
        # Connections the server closes (no hello, a bad version, ...) end early: go on with
        # new ones until enough messages went out.
        while stats["sent"] < MESSAGES:
            batch = [rng.randrange(50, 400) for _ in range(4)]
            await asyncio.gather(*(one_connection(n) for n in batch))
            status, _, body = s.get("/healthz")
            assert status == 200 and json.loads(body)["ok"] is True
    try:
        asyncio.run(asyncio.wait_for(go(), 240))
        assert s.proc.poll() is None, "the server died"
        assert stats["sent"] >= MESSAGES
        assert s.board()["version"] >= 0
        print(f"fuzzed live: {stats}")
    finally:
        assert s.stop() == 0
