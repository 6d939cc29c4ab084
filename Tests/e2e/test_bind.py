"""`--host` decides where the listening socket is bound; the operating system is the judge."""
import json
import socket
import subprocess
import urllib.request

import pytest

from conftest import BINARY
from liftboard_server import RunningServer


def listening(port):
    """(family, address) of every TCP socket in LISTEN state on `port`, from /proc/net/tcp{,6}."""
    out = set()
    for family, path in (("ipv4", "/proc/net/tcp"), ("ipv6", "/proc/net/tcp6")):
        with open(path) as f:
            next(f)
            for line in f:
                fields = line.split()
                local, state = fields[1], fields[3]
                if state != "0A":  # TCP_LISTEN
                    continue
                hex_addr, hex_port = local.split(":")
                if int(hex_port, 16) != port:
                    continue
                raw = bytes.fromhex(hex_addr)
                if family == "ipv4":
                    addr = socket.inet_ntop(socket.AF_INET, raw[::-1])
                else:  # four host-order 32-bit words
                    addr = socket.inet_ntop(socket.AF_INET6, b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4)))
                out.add((family, addr))
    return out


def connects(host, port):
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.settimeout(2)
        try:
            s.connect((host, port))
            return True
        except ConnectionRefusedError:
            return False


def healthz(host, port):
    url_host = f"[{host}]" if ":" in host else host
    with urllib.request.urlopen(f"http://{url_host}:{port}/healthz", timeout=5) as r:
        return json.loads(r.read())


@pytest.fixture
def serve(tmp_path):
    servers = []

    def start(*args):
        s = RunningServer(*args, data_dir=tmp_path / f"data{len(servers)}").start()
        servers.append(s)
        return s
    yield start
    for s in servers:
        s.stop()


def test_with_no_flags_the_server_listens_on_127_0_0_1_only(serve):
    s = serve()
    assert listening(s.port) == {("ipv4", "127.0.0.1")}
    assert healthz("127.0.0.1", s.port)["listen"] == f"127.0.0.1:{s.port}"
    assert any(f"bound=127.0.0.1:{s.port}" in line for line in s.lines)
    s.mark_log()  # the warning would follow the listen line: every line before the mark is read
    assert not any("exposed" in line for line in s.lines)


def test_a_second_loopback_address_is_refused_when_bound_to_127_0_0_1(serve):
    s = serve("--host", "127.0.0.1")
    assert listening(s.port) == {("ipv4", "127.0.0.1")}
    assert connects("127.0.0.1", s.port)
    assert not connects("127.0.0.2", s.port)


def test_localhost_binds_the_ipv4_loopback_address(serve):
    s = serve("--host", "localhost")
    assert listening(s.port) == {("ipv4", "127.0.0.1")}
    assert not connects("127.0.0.2", s.port)


@pytest.mark.parametrize("host", ["::1", "[::1]"])
def test_the_ipv6_loopback_address_binds_only_it(serve, host):
    s = serve("--host", host)
    assert listening(s.port) == {("ipv6", "::1")}
    assert healthz("::1", s.port)["listen"] == f"[::1]:{s.port}"
    assert not connects("127.0.0.1", s.port)


def test_0_0_0_0_listens_on_every_interface_and_warns_without_a_token(serve):
    s = serve("--host", "0.0.0.0")
    assert listening(s.port) == {("ipv4", "0.0.0.0")}
    assert connects("127.0.0.2", s.port)
    assert healthz("127.0.0.1", s.port)["listen"] == f"0.0.0.0:{s.port}"
    assert "without --token" in s.wait_for_line("warn exposed")


def test_listening_on_every_interface_with_a_token_does_not_warn(serve):
    s = serve("--host", "0.0.0.0", "--token", "t0k")
    assert listening(s.port) == {("ipv4", "0.0.0.0")}
    s.mark_log()
    assert not any("exposed" in line for line in s.lines)


def test_double_colon_listens_on_every_interface_of_both_families(serve):
    s = serve("--host", "::")
    assert listening(s.port) == {("ipv6", "::")}
    assert connects("127.0.0.2", s.port) and connects("::1", s.port)
    s.wait_for_line("warn exposed")


@pytest.mark.parametrize("host,message", [("no-such-host.invalid", "does not resolve"),
                                          ("lo", "network interface name"),
                                          ("10.255.255.254", "cannot listen")])
def test_a_host_that_cannot_be_listened_on_exits_2_before_listening(tmp_path, host, message):
    out = subprocess.run([str(BINARY), "serve", "--port", "0", "--data", str(tmp_path / "d"), "--host", host],
                         capture_output=True, text=True, timeout=20)
    assert out.returncode == 2, out
    assert message in out.stderr and "listen http" not in out.stderr
