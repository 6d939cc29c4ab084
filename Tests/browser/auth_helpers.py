"""Signed tokens for the browser tests of issue 42: an HS256 key the server reads
(`--auth-keys`), tokens minted for it by PyJWT (an implementation independent of the server's),
the board read over the API with a token, and the host app of Examples/auth run as a process."""
import base64
import json
import os
import re
import subprocess
import sys
import time


import jwt
from conftest import ROOT
from liftboard_server import wait_for

HOST_PY = ROOT / "Examples" / "auth" / "host.py"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Keys:
    """One HS256 secret, as the signer's and the server's JWKS files (`liftboard token keygen`
    writes the same pair: for HS256 both hold the secret)."""

    def __init__(self, folder, kid="app-1"):
        self.kid, self.secret = kid, os.urandom(32)
        jwks = json.dumps({"keys": [{"kty": "oct", "kid": kid, "alg": "HS256", "k": b64url(self.secret)}]})
        self.path = folder / "server.jwks.json"
        self.path.write_text(jwks)
        self.signer = folder / "signer.jwks.json"
        self.signer.write_text(jwks)
        os.chmod(self.signer, 0o600)

    def mint(self, sub, role=None, boards=("demo",), ttl=600.0, name=None):
        """A token for `sub` on `boards` with `role` (none: the server's default, move), expiring
        `ttl` seconds from now (rounded up to the second)."""
        now = time.time()
        claims = {"sub": sub, "name": name or sub.title(), "boards": list(boards), "iat": int(now), "exp": int(now + ttl + 0.999)}
        if role:
            claims["role"] = role
        return jwt.encode(claims, self.secret, algorithm="HS256", headers={"kid": self.kid})


def api_board(server, token, board="demo"):
    """`GET /api/boards/BOARD` with `Authorization: Bearer` (the API needs a token with --auth-keys)."""
    status, _, body = server.get(f"/api/boards/{board}", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, (status, body)
    return json.loads(body)


def live_version(server, token, board="demo"):
    """The board's version as the server holds it now, commits not yet durable included: the
    `layout` a new session (with `token`) is given. The HTTP API answers the durable one."""
    import asyncio
    import websockets
    from liftboard_server import HELLO, recv_until

    async def read():
        async with websockets.connect(f"{server.ws}?board={board}&token={token}", subprotocols=["liftboard.v1"]) as ws:
            await ws.send(json.dumps(dict(HELLO, board=board)))
            got = await recv_until(ws, lambda m: m["t"] == "layout")
            assert got and got[-1]["t"] == "layout", f"no layout within 5 s: {got}"
            return got[-1]["version"]
    return asyncio.run(read())


def order(board):
    return {s["section"]: s["items"] for s in board["order"]}


class HostApp:
    """Examples/auth/host.py run as a process on a free port: `args` as its command line takes them."""

    def __init__(self, *args, cwd=ROOT):
        self.proc = subprocess.Popen([sys.executable, str(HOST_PY), *args], cwd=cwd, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        self.lines = []
        import threading
        threading.Thread(target=self._read, daemon=True).start()
        line = wait_for(lambda: next((l for l in self.lines if "listening on" in l), None) or self.proc.poll() is not None,
                        timeout=20, what="host.py to listen")
        assert line is not True, f"host.py exited {self.proc.returncode}: {''.join(self.lines)}"
        self.url = re.search(r"http://\S+/", line).group(0)

    def _read(self):
        for line in self.proc.stderr:
            self.lines.append(line)

    def token_requests(self):
        return sum(1 for l in self.lines if l.startswith("host POST /token 200"))

    def stop(self):
        self.proc.terminate()
        self.proc.wait(5)


def sign_in(driver, host, user):
    """The host app's sign-in form, filled and sent as a person would."""
    from selenium.webdriver.support.ui import Select
    driver.get(host.url)
    Select(driver.find_element("name", "user")).select_by_value(user)
    driver.find_element("css selector", "form button").click()
    wait_for(lambda: driver.execute_script("return !!document.getElementById('board')"), what=f"the page {user} is signed in to")


