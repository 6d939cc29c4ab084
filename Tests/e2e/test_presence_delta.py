"""Issue 44, presence as differences (`hello.config.presence: "delta"`, docs/protocol.md
"Presence as differences"): a session that asks for them is sent its first presence whole and
then differences that rebuild, by the contract's rules, exactly what a session that did not ask
is sent; its recording replays to the same bytes."""
import asyncio
import json

import websockets

from liftboard_server import HELLO, RunningServer, assert_replays, long_press_drag, recv_until, until_pong


def assemble(last, last_v, msg):
    """The contract's rules, as a client applies them: the whole presence `msg` brings `last` to."""
    if "base" not in msg:
        return {k: v for k, v in msg.items() if k not in ("t", "v")}
    assert last is not None and msg["base"] == last_v, (msg, last_v)
    gone = set(msg.get("gone", []))
    people = [dict(e) for e in last["people"] if e["session"] not in gone]
    added = []
    for c in msg.get("changed", []):
        if "at" in c:
            added.append((c["at"], {k: v for k, v in c.items() if k != "at"}))
            continue
        e = next(e for e in people if e["session"] == c["session"])
        for k, v in c.items():
            if k != "target":
                e[k] = v
            elif v is None:
                e.pop("target", None)
            elif "section" in v or "target" not in e:
                e["target"] = dict(v)
            else:
                e["target"] = {**e["target"], **v}
    for at, e in added:
        people.insert(at, e)
    out = {"board": msg["board"], "people": people, "watching": msg.get("watching", last["watching"])}
    more = msg.get("more", last.get("more", 0))
    if more:
        out["more"] = more
    return out


def test_differences_rebuild_what_a_whole_session_is_sent_and_replay(tmp_path, liftboard, schema_validator):
    rec = tmp_path / "rec"
    s = RunningServer("--record", str(rec), data_dir=tmp_path / "data").start()
    try:
        async def go():
            async with websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ana, \
                    websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=5) as bo, \
                    websockets.connect(s.ws, subprotocols=["liftboard.v1"], open_timeout=5) as cy:
                await ana.send(json.dumps(HELLO))
                await recv_until(ana, lambda m: m["t"] == "presence")
                await bo.send(json.dumps(HELLO))
                await recv_until(bo, lambda m: m["t"] == "presence" and len(m["people"]) == 2)
                await cy.send(json.dumps({**HELLO, "config": {"presence": "delta"}}))
                told = await recv_until(cy, lambda m: m["t"] == "presence")
                assert told[0]["config"]["presence"] == "delta", told[0]
                first = told[-1]
                assert first["t"] == "presence" and "v" in first and "base" not in first and len(first["people"]) == 3, first
                bo_got = await recv_until(bo, lambda m: m["t"] == "presence" and len(m["people"]) == 3)
                bo_got = bo_got[-1:]
                # Ana drags milk down a few places (her target moves), then drops it.
                await long_press_drag(ana, 50, 60, 300, steps=8, release=False)
                await ana.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": 300, "ms": 0}))
                bo_got += await recv_until(bo, lambda m: m["t"] == "presence" and not any(e["holds"] for e in m["people"])
                                           and m is not bo_got[0])
                bo_got += await until_pong(bo, "end")
                told += await until_pong(cy, "end")
                return told, [m for m in bo_got if m["t"] == "presence"]
        told, whole = run(go())
    finally:
        s.stop()
    for m in told:
        schema_validator.validate(m)
    sent = [m for m in told if m["t"] == "presence"]
    # After the first, each is a difference but for one numbered a multiple of 16 (whole).
    assert len(sent) >= 3 and all(("base" in m) != (m["v"] % 16 == 0) for m in sent[1:]), sent
    diffs = [m for m in sent[1:] if "base" in m]
    assert diffs, sent
    holds_told = [m for m in sent[1:] if "base" not in m or any("holds" in c for c in m.get("changed", []))]
    assert holds_told, sent
    rebuilt, last, v = [], None, None
    for m in sent:
        last, v = assemble(last, v, m), m["v"]
        rebuilt.append(last)
    assert rebuilt == [{k: x for k, x in m.items() if k != "t"} for m in whole]
    # Smaller: every difference is under half the whole presence Bo was sent for it.
    for d, w in zip(sent[1:], whole[1:]):
        if "base" not in d:
            continue
        assert len(json.dumps(d, separators=(",", ":"))) * 2 < len(json.dumps(w, separators=(",", ":"))), (d, w)
    # The session's recording replays to the same bytes, differences included.
    stream, _ = assert_replays(liftboard, rec, told)
    assert '"presence":"delta"' in stream


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 30))
