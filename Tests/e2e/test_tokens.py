"""`liftboard token verify` and `mint` against an independent implementation (issue 42): PyJWT
(with `cryptography`) mints tokens for every algorithm and role, and every refusal the issue
lists; the verifier's verdict, read as JSON, must agree. Tokens minted by `liftboard token
mint` must verify in PyJWT. No refusal may print the token."""
import base64
import hashlib
import hmac
import json
import os
import subprocess

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from jwt.algorithms import ECAlgorithm, OKPAlgorithm

NOW = 1_800_000_000
ROLES = ("view", "move", "edit", "admin")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    """One key of each kind, and the server's JWKS of them (public parts only) as PyJWT writes it."""
    folder = tmp_path_factory.mktemp("keys")
    secret = os.urandom(32)
    ed = ed25519.Ed25519PrivateKey.generate()
    p256 = ec.generate_private_key(ec.SECP256R1())
    jwks = {"keys": [
        {"kty": "oct", "kid": "hs", "k": b64url(secret)},
        dict(json.loads(OKPAlgorithm.to_jwk(ed.public_key())), kid="ed"),
        dict(json.loads(ECAlgorithm.to_jwk(p256.public_key())), kid="ec"),
    ]}
    path = folder / "server.jwks.json"
    path.write_text(json.dumps(jwks))
    return {"path": str(path), "hs": secret, "ed": ed, "ec": p256}


SIGNERS = {"hs": "HS256", "ed": "EdDSA", "ec": "ES256"}


def mint(keys, kid, claims=None, headers=None, **extra):
    claims = claims if claims is not None else {"sub": "ada", "name": "Ada", "exp": NOW + 600, "iat": NOW, "boards": ["demo"]}
    claims = dict(claims, **extra)
    return jwt.encode(claims, keys[kid], algorithm=SIGNERS[kid], headers=dict({"kid": kid}, **(headers or {})))


def verify(liftboard, keys, token, board="demo", audience=None):
    args = [liftboard, "token", "verify", "--keys", keys["path"], "--now", str(NOW)]
    args += ["--board", board] if board else []
    args += ["--audience", audience] if audience else []
    r = subprocess.run(args, input=token.encode() + b"\n", capture_output=True, timeout=30)
    out = r.stdout.decode()
    assert not token or (token not in out and token not in r.stderr.decode()), "the token was printed"
    verdict = json.loads(out)
    assert r.returncode == (0 if verdict["ok"] else 1), (r.returncode, out, r.stderr)
    return verdict


def refused(liftboard, keys, token, code, status=401, **kw):
    verdict = verify(liftboard, keys, token, **kw)
    assert verdict["ok"] is False, verdict
    assert verdict["error"]["code"] == code, verdict
    assert verdict["status"] == status, verdict
    assert set(verdict["error"]) == {"code", "message"}


@pytest.mark.parametrize("kid", SIGNERS)
@pytest.mark.parametrize("role", ROLES)
def test_pyjwt_tokens_are_accepted_for_every_algorithm_and_role(liftboard, keys, kid, role):
    verdict = verify(liftboard, keys, mint(keys, kid, role=role, boards=["other", "team-*"]), board="team-7")
    assert verdict == {"ok": True, "claims": {"sub": "ada", "name": "Ada", "exp": NOW + 600, "iat": NOW,
                                              "boards": ["other", "team-*"], "role": role}}


def test_a_token_without_a_role_moves(liftboard, keys):
    assert verify(liftboard, keys, mint(keys, "ed"))["claims"]["role"] == "move"


@pytest.mark.parametrize("kid", SIGNERS)
def test_a_tampered_payload_is_refused(liftboard, keys, kid):
    head, _, sig = mint(keys, kid).split(".")
    forged = b64url(json.dumps({"sub": "ada", "exp": NOW + 600, "boards": ["demo"], "role": "admin"}).encode())
    refused(liftboard, keys, f"{head}.{forged}.{sig}", "signature_invalid")


def test_alg_none_is_refused(liftboard, keys):
    claims = {"sub": "ada", "exp": NOW + 600, "boards": ["demo"]}
    for kid in SIGNERS:
        token = jwt.encode(claims, None, algorithm="none", headers={"kid": kid})
        assert token.endswith(".")
        refused(liftboard, keys, token, "algorithm_refused")


def hs256_by_hand(kid, secret, claims):
    """An HS256 token over any bytes as the secret (PyJWT refuses a PEM key as an HMAC secret)."""
    signing_input = b64url(json.dumps({"alg": "HS256", "kid": kid}).encode()) + "." + b64url(json.dumps(claims).encode())
    return signing_input + "." + b64url(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())


def test_hs256_made_with_an_eddsa_keys_public_bytes_is_refused(liftboard, keys):
    public = keys["ed"].public_key()
    claims = {"sub": "ada", "exp": NOW + 600, "boards": ["demo"]}
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    pem = public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    jwk = OKPAlgorithm.to_jwk(public).encode()
    refused(liftboard, keys, jwt.encode(claims, raw, algorithm="HS256", headers={"kid": "ed"}), "algorithm_refused")
    for secret in (pem, jwk):
        refused(liftboard, keys, hs256_by_hand("ed", secret, claims), "algorithm_refused")
    # The same with the P-256 key's point.
    point = keys["ec"].public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    refused(liftboard, keys, jwt.encode(claims, point, algorithm="HS256", headers={"kid": "ec"}), "algorithm_refused")


def test_a_header_alg_other_than_the_keys_is_refused(liftboard, keys):
    # An ES256 token naming the Ed25519 key, and an EdDSA token naming the HMAC key.
    refused(liftboard, keys, jwt.encode({"sub": "a", "exp": NOW + 9}, keys["ec"], algorithm="ES256", headers={"kid": "ed"}),
            "algorithm_refused", board=None)
    refused(liftboard, keys, jwt.encode({"sub": "a", "exp": NOW + 9}, keys["ed"], algorithm="EdDSA", headers={"kid": "hs"}),
            "algorithm_refused", board=None)


def test_an_unknown_kid_is_refused(liftboard, keys):
    other = ed25519.Ed25519PrivateKey.generate()
    refused(liftboard, keys, jwt.encode({"sub": "a", "exp": NOW + 9, "boards": ["demo"]}, other, algorithm="EdDSA",
                                        headers={"kid": "gone"}), "unknown_key")
    refused(liftboard, keys, jwt.encode({"sub": "a", "exp": NOW + 9, "boards": ["demo"]}, keys["hs"], algorithm="HS256"),
            "unknown_key")


@pytest.mark.parametrize("kid", SIGNERS)
def test_times_with_60_seconds_of_leeway(liftboard, keys, kid):
    refused(liftboard, keys, mint(keys, kid, exp=NOW - 61), "token_expired")
    assert verify(liftboard, keys, mint(keys, kid, exp=NOW - 59))["ok"]
    refused(liftboard, keys, mint(keys, kid, nbf=NOW + 120), "token_not_yet_valid")
    assert verify(liftboard, keys, mint(keys, kid, nbf=NOW + 59))["ok"]
    refused(liftboard, keys, mint(keys, kid, iat=NOW + 120), "token_not_yet_valid")


def test_another_board_is_forbidden(liftboard, keys):
    token = mint(keys, "hs", boards=["demo", "team-*"])
    refused(liftboard, keys, token, "board_forbidden", status=403, board="demo2")
    refused(liftboard, keys, token, "board_forbidden", status=403, board="team")
    refused(liftboard, keys, mint(keys, "hs", boards=[]), "board_forbidden", status=403)


def test_the_audience_must_match_when_configured(liftboard, keys):
    token = mint(keys, "ec", aud=["boards.example", "other"])
    assert verify(liftboard, keys, token, audience="boards.example")["ok"]
    refused(liftboard, keys, token, "audience_mismatch", audience="wrong.example")
    refused(liftboard, keys, mint(keys, "ec"), "audience_mismatch", audience="boards.example")
    assert verify(liftboard, keys, token)["ok"]


def test_a_5_kb_token_is_refused_before_it_is_read(liftboard, keys):
    token = mint(keys, "ed", padding="x" * 3600)
    assert 4096 < len(token) <= 5120
    refused(liftboard, keys, token, "token_too_large")
    refused(liftboard, keys, "x" * 5120, "token_too_large")


def test_claims_of_the_wrong_shape_are_refused(liftboard, keys):
    refused(liftboard, keys, mint(keys, "hs", claims={"exp": NOW + 9, "boards": ["demo"]}), "claim_invalid")
    refused(liftboard, keys, mint(keys, "hs", claims={"sub": "ada", "boards": ["demo"]}), "claim_invalid")
    refused(liftboard, keys, mint(keys, "hs", role="owner"), "claim_invalid")


def test_malformed_tokens_are_refused(liftboard, keys):
    good = mint(keys, "hs")
    for token in ("", "Bearer " + good, good + ".", good.replace(".", "=.", 1), "a.b", "%%.%%.%%"):
        refused(liftboard, keys, token, "token_invalid")


@pytest.mark.parametrize("alg", SIGNERS.values())
def test_liftboard_minted_tokens_verify_in_pyjwt(liftboard, tmp_path, alg):
    signing, verifying = tmp_path / "signing.json", tmp_path / "verifying.json"
    subprocess.run([liftboard, "token", "keygen", "--alg", alg, "--kid", "k1", "--signing", str(signing),
                    "--verifying", str(verifying)], check=True, timeout=30)
    assert oct(signing.stat().st_mode & 0o777) == "0o600"
    token = subprocess.run([liftboard, "token", "mint", "--keys", str(signing), "--sub", "wall-3", "--name", "Lobby",
                            "--board", "demo", "--role", "view", "--aud", "boards.example", "--ttl", "300"],
                           check=True, capture_output=True, timeout=30).stdout.decode().strip()
    key = jwt.PyJWKSet.from_json(verifying.read_text())["k1"]
    assert jwt.get_unverified_header(token) == {"alg": alg, "kid": "k1", "typ": "JWT"}
    claims = jwt.decode(token, key.key, algorithms=[alg], audience="boards.example")
    assert claims["sub"] == "wall-3" and claims["name"] == "Lobby" and claims["boards"] == ["demo"]
    assert claims["role"] == "view" and claims["exp"] - claims["iat"] == 300
    # The server's file holds no private key; the signer's is refused as one.
    r = subprocess.run([liftboard, "token", "verify", "--keys", str(signing)], input=token.encode(),
                       capture_output=True, timeout=30)
    if alg != "HS256":
        assert r.returncode == 2 and b'holds a private key ("d")' in r.stderr, r.stderr


def test_a_key_file_that_does_not_parse_names_the_key_and_the_reason(liftboard, tmp_path):
    path = tmp_path / "bad.jwks.json"
    path.write_text(json.dumps({"keys": [{"kty": "oct", "kid": "a", "k": b64url(os.urandom(32))},
                                         {"kty": "RSA", "kid": "legacy", "n": "AQAB", "e": "AQAB"}]}))
    r = subprocess.run([liftboard, "token", "verify", "--keys", str(path)], input=b"x", capture_output=True, timeout=30)
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode() == f'liftboard token: {path}: key 1 (kid "legacy"): "kty" "RSA" is not supported (oct, OKP or EC)\n'
