"""docs/embedding.md's and docs/kiosk.md's signed tokens, run as the docs write them, with no
server: the EdDSA section's commands and Python (PyJWT) make a token `liftboard token verify`
accepts with its claims; Examples/auth/host.py mints HS256 tokens the verifier accepts for each
of its users, with their boards and role; the kiosk's operator command mints a `view` token for
the display's board. (Tests/browser/test_auth_example.py runs them against a real server.)"""
import json
import re
import shlex
import subprocess
import sys
import time

from conftest import ROOT

EMBEDDING = (ROOT / "docs" / "embedding.md").read_text()
KIOSK = (ROOT / "docs" / "kiosk.md").read_text()


def block(doc, after, lang="sh"):
    """The first ```LANG block after `after`."""
    at = doc.index(after)
    start = doc.index(f"```{lang}\n", at) + len(f"```{lang}\n")
    return doc[start:doc.index("```", start)]


def commands(body):
    return [" ".join(l.split()) for l in body.replace("\\\n", " ").splitlines() if l.strip() and not l.strip().startswith("#")]


def run(line, cwd, liftboard, stdin=None):
    """A doc's shell line (a `liftboard` command, `> FILE` redirect allowed) run in `cwd` with
    this build's binary."""
    words = shlex.split(line)
    out = None
    if ">" in words:
        out = cwd / words[words.index(">") + 1]
        words = words[:words.index(">")]
    assert words[0] in ("liftboard", ".build/debug/liftboard"), line
    r = subprocess.run([liftboard, *words[1:]], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=60)
    assert r.returncode in (0, 1), (line, r.returncode, r.stderr)
    if out:
        out.write_text(r.stdout)
    return r


def verify(liftboard, cwd, keys, token, board):
    r = subprocess.run([liftboard, "token", "verify", "--keys", str(keys), "--board", board], cwd=cwd,
                       input=token + "\n", capture_output=True, text=True, timeout=60)
    verdict = json.loads(r.stdout)
    assert verdict["ok"] is True, verdict
    return verdict["claims"]


def test_the_eddsa_section_signs_with_pyjwt_a_token_liftboard_accepts(liftboard, tmp_path):
    section = EMBEDDING[EMBEDDING.index("### EdDSA: a backend that shares no secret"):]
    keygen, serve = commands(block(section, "###"))
    assert "--alg EdDSA" in keygen and "--auth-keys server.jwks.json" in serve
    assert run(keygen, tmp_path, liftboard).returncode == 0
    assert (tmp_path / "signer.jwks.json").stat().st_mode & 0o077 == 0  # the private key: its owner's alone
    assert "d" not in json.loads((tmp_path / "server.jwks.json").read_text())["keys"][0]
    code = block(section, "###", "python")
    script = code + "\nprint(token_for('ana', 'Ana Lima', ['kitchen'], 'edit'))\n"
    r = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    claims = verify(liftboard, tmp_path, tmp_path / "server.jwks.json", r.stdout.strip(), "kitchen")
    assert {k: claims[k] for k in ("sub", "name", "boards", "role")} == \
        {"sub": "ana", "name": "Ana Lima", "boards": ["kitchen"], "role": "edit"}
    assert 590 <= claims["exp"] - time.time() <= 600


def test_the_example_host_mints_hs256_tokens_with_each_users_boards_and_role(liftboard, tmp_path):
    keygen = commands(block(EMBEDDING, "### The example: `Examples/auth`"))[0]
    assert "--alg HS256" in keygen
    run(keygen, tmp_path, liftboard)
    sys.path.insert(0, str(ROOT / "Examples" / "auth"))
    try:
        import host
    finally:
        sys.path.pop(0)
    kid, secret = host.hs256_key(tmp_path / "signer.jwks.json", None)
    users = json.loads((ROOT / "Examples" / "auth" / "users.json").read_text())
    app = host.Host(users, kid, secret, "http://127.0.0.1:8080", ttl=600)
    for user_id, user in users.items():
        claims = verify(liftboard, tmp_path, tmp_path / "server.jwks.json", app.token(user_id), user["boards"][0])
        assert (claims["sub"], claims["name"], claims["boards"], claims["role"]) == \
            (user_id, user["name"], user["boards"], user["role"])
        assert 590 <= claims["exp"] - time.time() <= 600


def test_the_kiosk_operators_command_mints_a_view_token_for_the_displays_board(liftboard, tmp_path):
    run("liftboard token keygen --alg HS256 --kid app-1 --signing signer.jwks.json --verifying server.jwks.json", tmp_path, liftboard)
    mint, browser = commands(block(KIOSK, "**An operator mints a long-lived token**"))
    run(mint, tmp_path, liftboard)
    token = (tmp_path / "wall.token").read_text().strip()
    board = re.search(r"--board (\S+)", mint).group(1)
    claims = verify(liftboard, tmp_path, tmp_path / "server.jwks.json", token, board)
    assert claims["role"] == "view" and claims["boards"] == [board]
    assert abs(claims["exp"] - time.time() - 30 * 86400) < 120  # the 30 days the doc says
    assert f"board={board}&kiosk=1&token=$(cat wall.token)" in browser
