"""`serve --auth-keys` (issue 42): tokens minted by PyJWT, an independent implementation, admit
WebSocket sessions and API requests for the board they name and the role they carry; every
refusal is an HTTP status with the one error body before the upgrade (or a close code after),
leaves no session open and never puts the token in the log. Sessions end at their token's
`exp` (4401, nothing committed) unless an `auth` message renews them; SIGHUP reloads the keys.
Timing is made deterministic by short `exp` and `--token-warning`: every wait is bounded and
waits for a message, never for an absence."""
import asyncio
import base64
import hashlib
import hmac
import json
import os
import signal
import socket
import time

import jwt
import pytest
import websockets
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from jwt.algorithms import ECAlgorithm, OKPAlgorithm

from liftboard_server import HELLO, RunningServer, long_press_drag, recv_until, until_pong, wait_for

AUDIENCE = "liftboard-e2e"
ROLES = ("view", "move", "edit", "admin")
SIGNERS = {"hs": "HS256", "ed": "EdDSA", "ec": "ES256"}
MILK_Y, MUM_MID = 60, 137


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwks_of(keys, kids=("hs", "ed", "ec")):
    entries = {
        "hs": lambda: {"kty": "oct", "kid": "hs", "k": b64url(keys["hs"])},
        "ed": lambda: dict(json.loads(OKPAlgorithm.to_jwk(keys["ed"].public_key())), kid="ed"),
        "ec": lambda: dict(json.loads(ECAlgorithm.to_jwk(keys["ec"].public_key())), kid="ec"),
    }
    return json.dumps({"keys": [entries[k]() for k in kids]})


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    folder = tmp_path_factory.mktemp("authkeys")
    k = {"hs": os.urandom(32), "ed": ed25519.Ed25519PrivateKey.generate(), "ec": ec.generate_private_key(ec.SECP256R1())}
    path = folder / "server.jwks.json"
    path.write_text(jwks_of(k))
    k["path"] = path
    return k


@pytest.fixture(scope="module")
def server(keys, tmp_path_factory):
    s = RunningServer("--auth-keys", str(keys["path"]), "--auth-audience", AUDIENCE, "--token-warning", "2",
                      data_dir=tmp_path_factory.mktemp("data")).start()
    yield s
    s.stop()


def mint(keys, kid="hs", ttl=600, headers=None, **claims):
    now = int(time.time())
    body = {"sub": "ada", "name": "Ada", "exp": now + ttl, "iat": now, "aud": AUDIENCE, "boards": ["demo"]}
    body.update(claims)
    body = {k: v for k, v in body.items() if v is not None}
    return jwt.encode(body, keys[kid], algorithm=SIGNERS[kid], headers=dict({"kid": kid}, **(headers or {})))


def connect(server, token=None, board="demo", headers=None):
    url = server.ws + "?board=" + board + (f"&token={token}" if token else "")
    return websockets.connect(url, subprotocols=["liftboard.v1"], open_timeout=5, additional_headers=headers or {})


def run(coro, timeout=40):
    return asyncio.run(asyncio.wait_for(coro, timeout))


def raw_upgrade(server, query="", extra=""):
    """An upgrade by hand: the status line and the body of the answer."""
    key = base64.b64encode(os.urandom(16)).decode()
    request = (f"GET /ws{query} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n{extra}\r\n").encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as s:
        s.sendall(request)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (socket.timeout, ConnectionResetError):
                break
            if not chunk:
                break
            out += chunk
            head, _, body = out.partition(b"\r\n\r\n")
            length = [int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
            if length and len(body) >= length[0]:
                break
    head, _, body = out.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), body


def one_error_body(body):
    doc = json.loads(body)
    assert set(doc) == {"error"} and set(doc["error"]) <= {"code", "message", "version"}, doc
    return doc["error"]


def sessions_open(server):
    status, _, body = server.get("/healthz")
    assert status == 200, body
    return json.loads(body)["sessions"]


def assert_never_logged(server, tokens):
    server.mark_log()
    log = "".join(server.lines)
    for t in tokens:
        # The signature segment alone would identify a token: neither it nor the whole may appear.
        signature = t.split(".")[-1]
        assert t not in log and (not signature or signature not in log), "a token was written to the log"


async def hello(ws, board="demo"):
    await ws.send(json.dumps(dict(HELLO, board=board)))
    got = await recv_until(ws, lambda m: m["t"] in ("layout", "error"))
    assert got and got[-1]["t"] == "layout", got
    return got


# MARK: Admitted


@pytest.mark.parametrize("kid", sorted(SIGNERS))
def test_tokens_of_every_algorithm_and_role_open_sessions(server, keys, kid):
    tokens = [mint(keys, kid, role=role, sub=f"user-{role}") for role in ROLES]

    async def go():
        for token in tokens:
            async with connect(server, token) as ws:
                got = await hello(ws)
                assert got[0]["t"] == "welcome" and got[0]["board"] == "demo"
        # The header works too (for clients that can set one).
        async with connect(server, headers={"Authorization": f"Bearer {tokens[1]}"}) as ws:
            await hello(ws)
    run(go())
    assert_never_logged(server, tokens)


# MARK: Refused before the upgrade


def hs256_by_hand(kid, secret, claims):
    head = b64url(json.dumps({"alg": "HS256", "kid": kid, "typ": "JWT"}).encode())
    body = b64url(json.dumps(claims).encode())
    mac = hmac.new(secret, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"{head}.{body}.{b64url(mac)}"


def refusal_cases(keys):
    now = int(time.time())
    good = mint(keys, "ed")
    head, body, sig = good.split(".")
    claims = json.loads(base64.urlsafe_b64decode(body + "=="))
    tampered = f"{head}.{b64url(json.dumps(dict(claims, role='admin')).encode())}.{sig}"
    none = f"{b64url(json.dumps({'alg': 'none', 'kid': 'hs'}).encode())}.{body}."
    ed_public = keys["ed"].public_key().public_bytes_raw()
    return [
        ("tampered payload", f"?board=demo&token={tampered}", "", 401, "signature_invalid", tampered),
        ("alg none", f"?board=demo&token={none}", "", 401, "algorithm_refused", none),
        ("HS256 with an EdDSA key's public bytes", None, "", 401, "algorithm_refused", hs256_by_hand("ed", ed_public, claims)),
        ("unknown kid", None, "", 401, "unknown_key", mint(keys, "hs", headers={"kid": "nobody"})),
        ("expired", None, "", 401, "token_expired", mint(keys, "ec", exp=now - 120)),
        ("not yet valid", None, "", 401, "token_not_yet_valid", mint(keys, "hs", nbf=now + 120)),
        ("another board", None, "", 403, "board_forbidden", mint(keys, "hs", boards=["kanban"])),
        ("wrong audience", None, "", 401, "audience_mismatch", mint(keys, "ed", aud="someone-else")),
        ("5 KB", None, "", 401, "token_too_large", mint(keys, "hs", pad="x" * 5000)),
        ("token in a malformed header", "?board=demo", "Authorization: Bearer {t} extra\r\n", 401, "token_invalid", good),
        ("not Bearer", "?board=demo", "Authorization: Token {t}\r\n", 401, "token_invalid", good),
        ("no token", "?board=demo", "", 401, "token_required", None),
    ]


def test_refused_tokens_get_a_status_and_the_one_error_body_and_no_session(server, keys):
    tokens = []
    for what, query, extra, status, code, token in refusal_cases(keys):
        query = query if query is not None else f"?board=demo&token={token}"
        got_status, body = raw_upgrade(server, query, extra.format(t=token))
        assert (got_status, one_error_body(body)["code"]) == (status, code), what
        if token:
            assert token.encode() not in body, what
            tokens.append(token)
    # A URL without the board is refused, its token valid or not.
    status, body = raw_upgrade(server, f"?token={mint(keys, 'hs')}")
    assert status == 400 and one_error_body(body)["code"] == "bad_request"
    wait_for(lambda: sessions_open(server) == 0, timeout=5, what="no session open after the refusals")
    assert_never_logged(server, tokens)


def test_a_hello_for_another_board_than_the_urls_is_refused(server, keys):
    token = mint(keys, "hs", boards=["demo", "kanban"])

    async def go():
        async with connect(server, token, board="demo") as ws:
            await ws.send(json.dumps(dict(HELLO, board="kanban")))
            got = await recv_until(ws, lambda m: m["t"] == "error")
            assert got and got[-1]["code"] == "board_forbidden", got
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            assert ws.close_code == 4403
    run(go())


# MARK: The API


def test_the_api_needs_a_token_naming_the_board_and_a_role_for_writes(server, keys):
    def get(path, token=None):
        return server.get(path, headers={"Authorization": f"Bearer {token}"} if token else {})

    viewer = mint(keys, "ed", role="view")
    assert get("/healthz")[0] == 200
    assert get("/")[0] == 200 and get("/api/openapi.yaml")[0] == 200
    status, _, body = get("/api/boards/demo")
    assert status == 401 and one_error_body(body)["code"] == "token_required"
    assert get("/api/boards/demo", viewer)[0] == 200
    status, _, body = get("/api/boards/kanban", viewer)
    assert status == 403 and one_error_body(body)["code"] == "board_forbidden"
    status, _, body = get("/api/boards", viewer)
    assert status == 200 and [b["id"] for b in json.loads(body)["boards"]] == ["demo"]

    def write(method, path, token, doc):
        import urllib.request
        req = urllib.request.Request(server.http + path, method=method, data=json.dumps(doc).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    item = {"id": "by-token", "label": "From a token", "section": "todo"}
    for role in ("view", "move"):
        status, body = write("POST", "/api/boards/demo/items", mint(keys, "hs", role=role), item)
        assert status == 403 and one_error_body(body)["code"] == "role_forbids", (role, body)
    # An editor gets past the gate: the API's own checks answer (If-Match is required).
    status, body = write("POST", "/api/boards/demo/items", mint(keys, "hs", role="edit"), item)
    assert status == 400 and one_error_body(body)["code"] == "if_match_required", body
    board = {"id": "team-x", "sections": [{"id": "s", "title": "S", "items": [{"id": "a", "label": "A"}]}]}
    status, body = write("POST", "/api/boards", mint(keys, "hs", role="edit", boards=["team-*"]), board)
    assert status == 403 and one_error_body(body)["code"] == "role_forbids", body
    status, body = write("POST", "/api/boards", mint(keys, "hs", role="admin", boards=["demo"]), board)
    assert status == 403 and one_error_body(body)["code"] == "board_forbidden", body
    status, body = write("POST", "/api/boards", mint(keys, "hs", role="admin", boards=["team-*"]), board)
    assert status == 201, body


# MARK: Expiry and renewal


def test_an_unrenewed_session_is_warned_then_closed_4401_at_exp_with_its_drag_uncommitted(server, keys):
    token = mint(keys, "hs", ttl=6)
    reader = mint(keys, "hs")

    async def go():
        async with connect(server, token) as ws:
            got = await hello(ws)
            version = got[-1]["version"]
            await long_press_drag(ws, 50, MILK_Y, MUM_MID + 5, release=False)
            warned = await recv_until(ws, lambda m: m["t"] == "token_expiring", timeout=6)
            assert warned and warned[-1]["t"] == "token_expiring" and 0 < warned[-1]["ms"] <= 2000, warned[-1:]
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    m = json.loads(await asyncio.wait_for(ws.recv(), 6))
                    assert m["t"] != "commit", m
            assert (ws.close_code, ws.close_reason) == (4401, "token_expired")
        return version

    version = run(go())
    _, _, body = server.get("/api/boards/demo", headers={"Authorization": f"Bearer {reader}"})
    assert json.loads(body)["version"] == version, "the expired session's drag was committed"
    wait_for(lambda: sessions_open(server) == 0, timeout=5, what="the closed session to be gone")


def test_an_auth_message_renews_in_place_and_keeps_a_drag_past_the_old_exp(server, keys):
    old_exp = int(time.time()) + 6
    token = mint(keys, "ed", ttl=6)
    renewed = mint(keys, "ec", ttl=120, role="edit")
    refused = mint(keys, "hs", boards=["kanban"])

    async def go():
        async with connect(server, token) as ws:
            await hello(ws)
            await long_press_drag(ws, 50, MILK_Y, MUM_MID + 5, release=False)
            warned = await recv_until(ws, lambda m: m["t"] == "token_expiring", timeout=6)
            assert warned and warned[-1]["t"] == "token_expiring", warned[-1:]
            # A token for another board is refused; the session keeps its old one.
            await ws.send(json.dumps({"t": "auth", "token": refused}))
            got = await recv_until(ws, lambda m: m["t"] == "error")
            assert got and got[-1]["code"] == "board_forbidden" and refused not in json.dumps(got), got[-1:]
            await ws.send(json.dumps({"t": "auth", "token": renewed}))
            got = await recv_until(ws, lambda m: m["t"] == "token_renewed")
            assert got and got[-1]["role"] == "edit" and got[-1]["ms"] > 100_000, got[-1:]
            # Past the old token's exp, the drag in flight still drops and commits.
            await asyncio.sleep(max(0, old_exp + 0.5 - time.time()))
            await until_pong(ws)
            await ws.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MUM_MID + 5, "ms": 0}))
            got = await recv_until(ws, lambda m: m["t"] == "commit", timeout=5)
            assert got and got[-1]["t"] == "commit", got[-3:]
    run(go())
    assert_never_logged(server, [token, renewed, refused])


# MARK: Keys


def test_sighup_reloads_the_keys_without_dropping_sessions_and_keeps_them_on_a_bad_file(server, keys):
    path = keys["path"]
    original = path.read_text()
    newer = {"hs": keys["hs"], "ed": keys["ed"], "ec": keys["ec"], "hs2": os.urandom(32)}
    rotated = json.loads(original)
    rotated["keys"].append({"kty": "oct", "kid": "hs2", "k": b64url(newer["hs2"])})
    SIGNERS["hs2"] = "HS256"

    async def go():
        async with connect(server, mint(keys, "hs")) as held:
            await hello(held)
            assert raw_upgrade(server, f"?board=demo&token={mint(newer, 'hs2')}")[0] == 401
            path.write_text(json.dumps(rotated))
            server.proc.send_signal(signal.SIGHUP)
            server.wait_for_line("reloaded, 4 keys")
            async with connect(server, mint(newer, "hs2")) as ws:
                await hello(ws)
            path.write_text("{not json")
            server.proc.send_signal(signal.SIGHUP)
            line = server.wait_for_line("the keys in force are kept")
            assert str(path) in line
            async with connect(server, mint(newer, "hs2")) as ws:
                await hello(ws)
            await until_pong(held)
    try:
        run(go())
    finally:
        path.write_text(original)
        del SIGNERS["hs2"]


def test_a_keys_file_that_does_not_parse_stops_serve_naming_it(tmp_path, liftboard):
    import subprocess
    bad = tmp_path / "keys.json"
    bad.write_text(json.dumps({"keys": [{"kty": "RSA", "kid": "legacy", "n": "x", "e": "AQAB"}]}))
    r = subprocess.run([liftboard, "serve", "--port", "0", "--data", str(tmp_path / "d"), "--auth-keys", str(bad)],
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and str(bad) in r.stderr and "RSA" in r.stderr, r.stderr


def test_a_recording_keeps_the_person_and_never_the_token(keys, tmp_path):
    record = tmp_path / "rec"
    s = RunningServer("--auth-keys", str(keys["path"]), "--auth-audience", AUDIENCE, "--record", str(record),
                      data_dir=tmp_path / "data").start()
    token, renewed = mint(keys, "ed", role="view", sub="wall-3", name="Lobby"), mint(keys, "hs", role="view", sub="wall-3")
    try:
        async def go():
            async with connect(s, token) as ws:
                await hello(ws)
                await ws.send(json.dumps({"t": "auth", "token": renewed}))
                got = await recv_until(ws, lambda m: m["t"] == "token_renewed")
                assert got and got[-1]["t"] == "token_renewed", got
                await until_pong(ws)
        run(go())
        wait_for(lambda: sessions_open(s) == 0, timeout=5, what="the session to close")
        streams = list(record.glob("*.jsonl"))
        assert len(streams) == 1, streams
        text = streams[0].read_text()
        assert text.splitlines()[0] == '# person {"user":"wall-3","name":"Lobby","role":"view"}', text[:200]
        assert token not in text and renewed not in text and '"auth"' not in text, text
        assert_never_logged(s, [token, renewed])
    finally:
        s.stop()


def test_a_renewal_to_view_ends_the_drag_in_flight_as_a_cancel(server, keys):
    token, viewer, reader = mint(keys, "hs", role="move"), mint(keys, "hs", role="view"), mint(keys, "hs")

    async def go():
        async with connect(server, token) as ws:
            version = (await hello(ws))[-1]["version"]
            await long_press_drag(ws, 50, MILK_Y, MUM_MID + 5, release=False)
            await ws.send(json.dumps({"t": "auth", "token": viewer}))
            got = await recv_until(ws, lambda m: m["t"] == "token_renewed")
            assert got and got[-1]["role"] == "view", got[-3:]
            drops = [m for m in got if m["t"] == "drop"]
            assert drops and drops[-1]["cancelled"] is True, got
            await ws.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MUM_MID + 5, "ms": 0}))
            assert not [m for m in await until_pong(ws) if m["t"] == "commit"]
        return version

    version = run(go())
    _, _, body = server.get("/api/boards/demo", headers={"Authorization": f"Bearer {reader}"})
    assert json.loads(body)["version"] == version


def test_a_recording_renewed_from_move_to_view_mid_drag_replays_to_what_the_session_was_sent(keys, tmp_path, liftboard):
    import subprocess
    record = tmp_path / "rec"
    s = RunningServer("--auth-keys", str(keys["path"]), "--auth-audience", AUDIENCE, "--record", str(record),
                      data_dir=tmp_path / "data").start()
    token = mint(keys, "hs", role="move", sub="u-7", name="Ada")
    viewer = mint(keys, "ed", role="view", sub="u-7", name="Ada")
    try:
        async def go():
            async with connect(s, token) as ws:
                told = await hello(ws)
                await ws.send(json.dumps({"t": "down", "p": 1, "x": 50, "y": MILK_Y, "ms": 0, "kind": "touch"}))
                told += await recv_until(ws, lambda m: m["t"] == "lift", timeout=3)
                assert told[-1]["t"] == "lift", told[-3:]
                for k in range(1, 6):
                    await ws.send(json.dumps({"t": "move", "p": 1, "x": 50, "y": MILK_Y + 16 * k, "ms": 0, "seq": k}))
                told += await until_pong(ws, "moved")
                await ws.send(json.dumps({"t": "auth", "token": viewer}))
                told += await recv_until(ws, lambda m: m["t"] == "token_renewed")
                assert told[-1]["role"] == "view", told[-3:]
                assert [m for m in told if m["t"] == "drop"][-1]["cancelled"] is True, told
                # As view now: the release commits nothing.
                await ws.send(json.dumps({"t": "up", "p": 1, "x": 50, "y": MILK_Y + 80, "ms": 0}))
                told += await until_pong(ws, "end")
                return told
        told = run(go())
        wait_for(lambda: sessions_open(s) == 0, timeout=5, what="the session to close")
    finally:
        s.stop()
    assert not [m for m in told if m["t"] == "commit"], told
    streams = list(record.glob("*.jsonl"))
    assert len(streams) == 1, streams
    text = streams[0].read_text()
    assert token not in text and viewer not in text and '"auth"' not in text, text
    person_lines = [json.loads(l) for l in text.splitlines() if l.startswith('{"t":"person"')]
    assert len(person_lines) == 1 and person_lines[0]["role"] == "view" and person_lines[0]["user"] == "u-7", text
    board = streams[0].with_name(streams[0].name.replace(".jsonl", ".board.json"))
    out = subprocess.run([liftboard, "replay", "--board", str(board), str(streams[0])], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    replayed = [json.loads(l) for l in out.stdout.splitlines()]
    # The replay's session id is `replay`; `token_renewed` is the connection's, not the
    # session's; pongs are left out of both. Everything else is what the session was sent.
    told[0]["session"] = "replay"
    sent = [m for m in told if m["t"] not in ("token_renewed", "pong")]
    replayed = [m for m in replayed if m["t"] != "pong"]
    assert replayed[:len(sent)] == sent, (replayed, sent)
    assert not [m for m in replayed if m["t"] == "commit"], replayed
    assert [m for m in replayed if m["t"] == "drop"][-1]["cancelled"] is True
