#!/usr/bin/env python3
"""A host app's backend for Liftboard's signed tokens, in Python's standard library alone.

It knows its users (users.json), logs one in with a form and a cookie session, and mints
short-lived HS256 tokens (RFC 7519) naming the user, the boards and the role the user has, for
the page's `<liftboard-board auth-endpoint="/token">`. Liftboard checks them with the same
secret (`liftboard serve --auth-keys`). Read README.md beside it, and docs/embedding.md.

    liftboard token keygen --alg HS256 --kid app-1 --signing signer.jwks.json --verifying server.jwks.json
    liftboard serve --boards Examples/boards --auth-keys server.jwks.json --allow-origin http://127.0.0.1:8000
    python3 Examples/auth/host.py --keys signer.jwks.json --liftboard http://127.0.0.1:8080

A real app checks a password (or its single sign-on) where this one takes a name: the rest,
the session, the token endpoint and the claims, is what it would do.
"""
import argparse
import base64
import hashlib
import hmac
import html
import http.cookies
import http.server
import json
import pathlib
import re
import secrets
import sys
import time
import urllib.parse

HERE = pathlib.Path(__file__).resolve().parent
COOKIE = "host_session"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def mint(claims: dict, secret: bytes, kid: str) -> str:
    """A compact JWS, HS256: base64url(header) . base64url(claims) . base64url(HMAC-SHA-256).
    The header names the key (`kid`): Liftboard takes the algorithm from that key, never from
    the token."""
    header = {"alg": "HS256", "kid": kid, "typ": "JWT"}
    signing_input = ".".join(b64url(json.dumps(part, separators=(",", ":")).encode()) for part in (header, claims))
    signature = hmac.new(secret, signing_input.encode("ascii"), hashlib.sha256).digest()
    return f"{signing_input}.{b64url(signature)}"


def hs256_key(path: pathlib.Path, kid: str | None):
    """The shared secret of a JWKS file (`liftboard token keygen --alg HS256` writes one):
    the `oct` key `kid` names, or the only one. Exits naming the file and the reason."""
    try:
        keys = [k for k in json.loads(path.read_text())["keys"] if k.get("kty") == "oct"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"host.py: {path}: not a JWKS file ({e})")
    if kid is not None:
        keys = [k for k in keys if k.get("kid") == kid]
    if len(keys) != 1:
        sys.exit(f"host.py: {path}: expected one oct (HS256) key{f' with kid {kid!r}' if kid else ''}, found {len(keys)}")
    secret = b64url_decode(keys[0]["k"])
    if len(secret) < 32:
        sys.exit(f"host.py: {path}: the secret is {len(secret)} bytes; HS256 needs at least 32")
    return keys[0]["kid"], secret


class Host:
    """What the backend knows: its users, the open cookie sessions, the key and the settings."""

    def __init__(self, users, kid, secret, liftboard, ttl, audience=None):
        self.users, self.kid, self.secret = users, kid, secret
        self.liftboard = liftboard.rstrip("/")
        self.ttl, self.audience = ttl, audience
        self.sessions = {}  # cookie value -> user id (in memory: a restart signs everyone out)

    def claims(self, user_id, now=None):
        """The token's claims for a user: who (`sub`, `name`), until when (`exp`), where
        (`boards`) and what they may do (`role`)."""
        user = self.users[user_id]
        now = int(time.time() if now is None else now)
        claims = {"sub": user_id, "name": user.get("name", user_id), "boards": user["boards"],
                  "role": user.get("role", "move"), "iat": now, "exp": now + self.ttl}
        if self.audience:
            claims["aud"] = self.audience
        return claims

    def token(self, user_id):
        return mint(self.claims(user_id), self.secret, self.kid)


class Handler(http.server.BaseHTTPRequestHandler):
    host: Host  # set on the class by serve()
    server_version = "liftboard-auth-example"

    # --- Routes.

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path in ("/host.js", "/host-frame.js", "/host.css"):
            return self.file(path[1:])
        if path not in ("/", "/frame"):
            return self.send_json(404, {"error": "not found"})
        user = self.user()
        if user is None:
            return self.page(LOGIN.replace("{users}", "".join(
                f'<option value="{html.escape(u)}">{html.escape(v.get("name", u))} ({html.escape(v.get("role", "move"))})</option>'
                for u, v in self.host.users.items())))
        boards = self.host.users[user]["boards"]
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        board = query.get("board", [boards[0]])[0]
        values = {"board": board, "name": self.host.users[user].get("name", user), "liftboard": self.host.liftboard,
                  "embed": f"{self.host.liftboard}/embed?{urllib.parse.urlencode({'board': board, 'auth': 'parent'})}"}
        parts = IFRAME if path == "/frame" else ELEMENT
        self.page(fill(PAGE.replace("{scripts}", parts["scripts"]).replace("{content}", parts["content"]), values))

    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        if not self.same_origin():
            return self.send_json(403, {"error": "cross-origin request"})
        if path == "/login":
            form = urllib.parse.parse_qs(self.body().decode("utf-8", "replace"))
            user = form.get("user", [""])[0]
            if user not in self.host.users:
                return self.send_json(403, {"error": "no such user"})
            session = secrets.token_urlsafe(32)
            self.host.sessions[session] = user
            return self.redirect("/", f"{COOKIE}={session}; Path=/; HttpOnly; SameSite=Strict")
        if path == "/logout":
            self.host.sessions.pop(self.cookie() or "", None)
            return self.redirect("/", f"{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0")
        if path == "/token":
            # The element's auth-endpoint: POSTed with the page's cookies, before it connects
            # and again when Liftboard says the token is expiring.
            user = self.user()
            if user is None:
                return self.send_json(401, {"error": "not signed in"})
            return self.send_json(200, {"token": self.host.token(user)})
        self.send_json(404, {"error": "not found"})

    # --- Helpers.

    def cookie(self):
        jar = http.cookies.SimpleCookie(self.headers.get("Cookie", ""))
        return jar[COOKIE].value if COOKIE in jar else None

    def user(self):
        return self.host.sessions.get(self.cookie() or "")

    def same_origin(self):
        """A POST from another site's page is refused (with SameSite=Strict cookies, twice safe)."""
        origin = self.headers.get("Origin")
        return origin is None or urllib.parse.urlsplit(origin).netloc == self.headers.get("Host")

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(min(length, 4096))

    def security_headers(self):
        # The page's own policy: scripts from here and from the Liftboard server, its socket.
        lb = urllib.parse.urlsplit(self.host.liftboard)
        ws = f"{'wss' if lb.scheme == 'https' else 'ws'}://{lb.netloc}"
        self.send_header("Content-Security-Policy", f"default-src 'self'; script-src 'self' {self.host.liftboard}; "
                         f"connect-src 'self' {ws}; img-src 'self' data: {self.host.liftboard}; style-src 'self'; "
                         f"frame-src {self.host.liftboard}; frame-ancestors 'none'")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-store")

    def send(self, status, body, content_type):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.security_headers()
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, status, obj):
        self.send(status, json.dumps(obj).encode(), "application/json")

    def page(self, text):
        self.send(200, text.encode(), "text/html; charset=utf-8")

    def file(self, name):
        self.send(200, (HERE / name).read_bytes(), "text/javascript" if name.endswith(".js") else "text/css")

    def redirect(self, to, cookie):
        self.send_response(303)
        self.send_header("Location", to)
        self.send_header("Set-Cookie", cookie)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, fmt, *args):
        # The access log, without query strings (a token never goes in one here, but a habit).
        sys.stderr.write(f"host {self.command} {urllib.parse.urlsplit(self.path).path} {args[1] if len(args) > 1 else ''}\n")


LOGIN = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title><link rel="stylesheet" href="/host.css"><link rel="icon" href="data:,"></head>
<body><h1>Sign in</h1>
<form method="post" action="/login"><label>User <select name="user">{users}</select></label> <button>Sign in</button></form>
</body></html>
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{board}</title>
<link rel="stylesheet" href="/host.css">
<link rel="icon" href="data:,">
{scripts}
</head>
<body>
<header><span id="who">{name}</span> <form method="post" action="/logout"><button>Sign out</button></form></header>
{content}
<p id="status" role="status">connecting…</p>
</body></html>
"""
# `/`: the element on this page, which gets its tokens from /token itself.
ELEMENT = {"scripts": '<script type="module" src="{liftboard}/liftboard.js"></script>\n<script type="module" src="/host.js"></script>',
           "content": '<liftboard-board id="board" board="{board}" auth-endpoint="/token"></liftboard-board>'}
# `/frame`: the board in Liftboard's iframe, to which this page passes the tokens by postMessage.
IFRAME = {"scripts": '<script type="module" src="/host-frame.js"></script>',
          "content": '<iframe id="frame" title="{board}" data-src="{embed}"></iframe>'}


def fill(template, values):
    """`template` with each `{name}` replaced by `values[name]`, HTML-escaped, in one pass (a
    value is never read as a template)."""
    return re.sub(r"\{(\w+)\}", lambda m: html.escape(values[m.group(1)]), template)


def serve(argv=None):
    p = argparse.ArgumentParser(description="A host app that signs Liftboard tokens (HS256) for its users.")
    p.add_argument("--keys", required=True, type=pathlib.Path, help="a JWKS file with the HS256 secret (liftboard token keygen --signing)")
    p.add_argument("--kid", help="the key's kid, when the file has more than one oct key")
    p.add_argument("--users", type=pathlib.Path, default=HERE / "users.json", help="user id -> name, boards, role")
    p.add_argument("--liftboard", default="http://127.0.0.1:8080", help="the Liftboard server's origin")
    p.add_argument("--ttl", type=int, default=600, help="a token's lifetime in seconds (default 600)")
    p.add_argument("--audience", help="the aud claim, when the server has --auth-audience")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    a = p.parse_args(argv)
    kid, secret = hs256_key(a.keys, a.kid)
    Handler.host = Host(json.loads(a.users.read_text()), kid, secret, a.liftboard, a.ttl, a.audience)
    httpd = http.server.ThreadingHTTPServer((a.host, a.port), Handler)
    print(f"host listening on http://{a.host}:{httpd.server_address[1]}/", file=sys.stderr, flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    serve()
