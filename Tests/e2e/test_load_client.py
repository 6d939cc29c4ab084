"""`liftboard load`'s own WebSocket client against a server that frames its answers every way
RFC 6455 allows: echoes split in fragments with a ping between them, lengths in the 16- and 64-bit
forms, members escaped and numbers in exponent form. Every move must be timed to its echo, every
ping answered with its payload, every client frame masked; a server whose upgrade answer is
wrong gets no session."""
import base64
import hashlib
import json
import os
import socket
import struct
import subprocess
import threading

GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def read_exact(conn, n):
    data = b""
    while len(data) < n:
        chunk = conn.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def server_frame(opcode, payload, fin=True):
    """A server frame: unmasked, the length in its shortest form."""
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n <= 0xFFFF:
        head += bytes([126]) + struct.pack("!H", n)
    else:
        head += bytes([127]) + struct.pack("!Q", n)
    return head + payload


class FramingEchoServer:
    """Speaks `liftboard.echo` on /echo, each answer framed a different way in turn."""

    def __init__(self, accept_ok=True):
        self.accept_ok = accept_ok
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.lock = threading.Lock()
        self.received = 0          # text messages from the clients
        self.sent = 0              # text messages to them (each echo is one, whatever its frames)
        self.styles = {}           # how many echoes went out in each style
        self.pings = {}            # ping payload -> answered?
        self.problems = []
        threading.Thread(target=self.accept_loop, daemon=True).start()

    def accept_loop(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def problem(self, text):
        with self.lock:
            self.problems.append(text)

    def serve(self, conn):
        try:
            head = b""
            while b"\r\n\r\n" not in head:
                head += conn.recv(4096)
            lines = head.decode().split("\r\n")
            headers = {l.split(":", 1)[0].strip().lower(): l.split(":", 1)[1].strip() for l in lines[1:] if ":" in l}
            if not lines[0].startswith("GET /echo HTTP/1.1") or headers.get("sec-websocket-protocol") != "liftboard.echo":
                self.problem(f"upgrade: {lines[0]} {headers}")
            key = headers.get("sec-websocket-key", "")
            accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
            if not self.accept_ok:
                accept = base64.b64encode(hashlib.sha1(b"not the key").digest()).decode()
            conn.sendall(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          f"Sec-WebSocket-Accept: {accept}\r\nSec-WebSocket-Protocol: liftboard.echo\r\n\r\n").encode())
            n = 0
            while True:
                b0, b1 = read_exact(conn, 2)
                opcode, masked, length = b0 & 0x0F, b1 & 0x80, b1 & 0x7F
                if length == 126:
                    length = struct.unpack("!H", read_exact(conn, 2))[0]
                elif length == 127:
                    length = struct.unpack("!Q", read_exact(conn, 8))[0]
                if not masked:
                    self.problem("an unmasked client frame")
                mask = read_exact(conn, 4) if masked else b"\0\0\0\0"
                payload = bytes(c ^ mask[i % 4] for i, c in enumerate(read_exact(conn, length)))
                if opcode == 0x8:
                    return
                if opcode == 0xA:
                    with self.lock:
                        if payload in self.pings:
                            self.pings[payload] = True
                        else:
                            self.problem(f"a pong for no ping: {payload!r}")
                    continue
                if opcode != 0x1:
                    self.problem(f"opcode {opcode}")
                    continue
                with self.lock:
                    self.received += 1
                conn.sendall(self.echo(json.loads(payload), n, conn))
                n += 1
        except (EOFError, OSError):
            pass
        finally:
            conn.close()

    def echo(self, msg, n, conn):
        style = ["fragments and a ping", "16-bit length", "64-bit length", "escaped, exponent"][n % 4]
        with self.lock:
            self.sent += 1
            self.styles[style] = self.styles.get(style, 0) + 1
        if style == "fragments and a ping":
            text = json.dumps(msg).encode()
            ping = os.urandom(8)
            with self.lock:
                self.pings[ping] = False
            a, b = len(text) // 3, 2 * len(text) // 3
            return (server_frame(0x1, text[:a], fin=False) + server_frame(0x9, ping)
                    + server_frame(0x0, text[a:b], fin=False) + server_frame(0x0, text[b:]))
        if style == "16-bit length":
            return server_frame(0x1, json.dumps({"pad": "x" * 300, **msg}).encode())
        if style == "64-bit length":
            return server_frame(0x1, json.dumps({"pad": ["y" * 70_000, {"t": "up", "seq": 0}], **msg}).encode())
        # The type escaped in name and value, the seq as a decimal exponent: 37 is 3.7e1.
        members = [f'"{k}":{json.dumps(v)}' for k, v in msg.items() if k not in ("t", "seq")]
        t = "".join(f"\\u{ord(c):04x}" for c in msg["t"])
        text = '{"\\u0074":"' + t + '","note":"a \\"quoted\\" \\\\ \\u00e9",' + ",".join(members) + f',"seq":{msg["seq"] / 10}e1' + "}"
        return server_frame(0x1, text.encode())

    def close(self):
        self.sock.close()


def run_load(liftboard, port, sessions, *extra):
    out = subprocess.run([liftboard, "load", "--echo", "--url", f"ws://127.0.0.1:{port}/ws", "--sessions", str(sessions),
                          "--workload", "reorder", "--moves", "12", "--gestures", "2", "--press-wait-ms", "0", "--rate", "120",
                          "--seconds", "60", "--json", *extra], capture_output=True, text=True, timeout=60)
    return out, json.loads(out.stdout)


def test_every_echo_is_read_however_the_server_frames_it_and_every_ping_is_answered(liftboard):
    server = FramingEchoServer()
    try:
        out, r = run_load(liftboard, server.port, 3)
        assert out.returncode == 0, out.stderr
        assert server.problems == []
        # 3 sessions x (hello + 2 drags x (down, 12 moves, up)).
        assert r["connected"] == 3 and r["sent"] == 3 * (1 + 2 * 14) == server.received
        assert r["received"] == server.sent == server.received and r["errors"] == 0
        # Every move was a drag's, so every one is timed to its own echo.
        assert r["movesSent"] == 3 * 2 * 12 and r["moves"] == r["movesSent"]
        assert set(server.styles) == {"fragments and a ping", "16-bit length", "64-bit length", "escaped, exponent"}
        assert server.pings and all(server.pings.values()), server.pings
        # Answers are timed at the kernel's receive stamp; the report says how long reads lagged it.
        assert r["receiveTime"] == "kernel" and r["loadReadDelayP50us"] >= 0 and r["loadLateP99us"] >= 0
        assert r["loadCPUSeconds"] > 0 and r["loadWakeUps"] > 0
    finally:
        server.close()


def test_answers_can_be_timed_when_read_instead_of_at_the_kernels_stamp(liftboard):
    server = FramingEchoServer()
    try:
        out, r = run_load(liftboard, server.port, 2, "--receive-time", "read")
        assert out.returncode == 0, out.stderr
        assert r["receiveTime"] == "read" and r["errors"] == 0 and r["moves"] == r["movesSent"] == 2 * 2 * 12
    finally:
        server.close()
    bad = subprocess.run([liftboard, "load", "--receive-time", "later"], capture_output=True, text=True, timeout=10)
    assert bad.returncode == 64 and "--receive-time" in bad.stderr


def test_a_server_whose_upgrade_answer_does_not_match_the_key_gets_no_session(liftboard):
    server = FramingEchoServer(accept_ok=False)
    try:
        out, r = run_load(liftboard, server.port, 2)
        assert out.returncode == 1
        assert "Sec-WebSocket-Accept" in out.stderr
        assert r["connected"] == 0 and r["errors"] == 2 and r["sent"] == 0 and server.received == 0
    finally:
        server.close()
