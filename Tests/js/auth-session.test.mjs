import { test } from "node:test";
import assert from "node:assert/strict";
import { AuthSession, BOARD_CLOSE, TOKEN_CLOSE, fetchToken, grantsBoard, readClaims, refusalCode } from "../../Public/auth-session.js";

const b64url = (obj) => Buffer.from(JSON.stringify(obj)).toString("base64url");
/** A token shaped like a JWT (the page never verifies one: the signature is any bytes). */
const jwt = (claims) => `${b64url({ alg: "HS256", kid: "k", typ: "JWT" })}.${b64url(claims)}.c2lnbmF0dXJl`;
const NOW = 1_800_000_000_000;  // ms
const fresh = (boards = ["kitchen"], extra = {}) => jwt({ sub: "ana", boards, exp: NOW / 1000 + 600, ...extra });

/** A fake `fetch`: answers from `replies` in turn (a status and a body, or an Error to throw),
 *  and keeps every call. */
function fakeFetch(...replies) {
  const calls = [];
  const f = async (url, init) => {
    calls.push({ url, init });
    const r = replies.length > 1 ? replies.shift() : replies[0];
    if (r instanceof Error) throw r;
    return { ok: r.status >= 200 && r.status < 300, status: r.status, json: async () => { if (r.body === undefined) throw new SyntaxError("not JSON"); return r.body; } };
  };
  f.calls = calls;
  return f;
}

function session(options, fetch = fakeFetch({ status: 500 })) {
  const seen = { errors: [], expiring: [] };
  const auth = new AuthSession({
    options: () => ({ board: "kitchen", token: null, authEndpoint: null, ...options }), fetch, now: () => NOW,
    onError: (code, message) => seen.errors.push([code, message]), onExpiring: (ms) => seen.expiring.push(ms),
  });
  return { auth, seen, fetch };
}

test("a JWT's claims are read (not verified); anything else is no claims", () => {
  assert.deepEqual(readClaims(jwt({ sub: "ana", name: "Ana Ñ", boards: ["a"], exp: 5 })), { sub: "ana", name: "Ana Ñ", boards: ["a"], exp: 5 });
  assert.equal(readClaims("a-shared-secret"), null);       // a --token
  assert.equal(readClaims("a.b"), null);
  assert.equal(readClaims(`x.${Buffer.from("[1]").toString("base64url")}.y`), null);  // not an object
  assert.equal(readClaims("x.!!!.y"), null);
  assert.equal(readClaims(`x.${Buffer.from([0xff, 0xfe]).toString("base64url")}.y`), null);  // not UTF-8
  assert.equal(readClaims(null), null);
});

test("boards grant an id or a prefix ending in *, as the server reads them", () => {
  assert.equal(grantsBoard(["kitchen"], "kitchen"), true);
  assert.equal(grantsBoard(["kitchen"], "kitchens"), false);
  assert.equal(grantsBoard(["team-*"], "team-7"), true);
  assert.equal(grantsBoard(["team-*"], "tea"), false);
  assert.equal(grantsBoard(["*"], "anything"), true);
  assert.equal(grantsBoard([], "kitchen"), false);
  assert.equal(grantsBoard(undefined, "kitchen"), false);
});

test("a refused upgrade is named from the token's claims when they explain it, else it is a network failure", () => {
  assert.equal(refusalCode(fresh(["garden"]), "kitchen", NOW), "board_forbidden");
  assert.equal(refusalCode(jwt({ sub: "ana", exp: NOW / 1000 }), "kitchen", NOW), "board_forbidden");  // no boards: none
  assert.equal(refusalCode(jwt({ sub: "ana", boards: ["kitchen"], exp: NOW / 1000 - 1 }), "kitchen", NOW), "token_expired");
  assert.equal(refusalCode(fresh(), "kitchen", NOW), null);
  assert.equal(refusalCode("shared-secret", "kitchen", NOW), null);
});

test("the endpoint is POSTed to with the page's credentials and answers the token", async () => {
  const f = fakeFetch({ status: 200, body: { token: "h.p.s" } });
  assert.equal(await fetchToken("/token", f), "h.p.s");
  assert.equal(f.calls[0].url, "/token");
  assert.equal(f.calls[0].init.method, "POST");
  assert.equal(f.calls[0].init.credentials, "include");
});

test("an endpoint that cannot give a token is auth_endpoint_failed; a 401 or 403 is not asked again", async () => {
  const failure = async (reply) => { try { await fetchToken("/token", fakeFetch(reply)); } catch (e) { return e; } assert.fail("no error"); };
  for (const [reply, retry] of [[{ status: 401 }, false], [{ status: 403 }, false], [{ status: 500 }, true],
    [{ status: 200, body: {} }, true], [{ status: 200, body: { token: "" } }, true], [{ status: 200 }, true],
    [new TypeError("Failed to fetch"), true]]) {
    const e = await failure(reply);
    assert.equal(e.code, "auth_endpoint_failed", JSON.stringify(reply));
    assert.equal(e.retry, retry, JSON.stringify(reply));
    assert.match(e.message, /auth-endpoint \/token/);
  }
});

test("the token attribute is used as it is; no token connects without one", async () => {
  assert.deepEqual(await session({ token: "t" }).auth.connectToken(), { token: "t", retry: true });
  assert.deepEqual(await session({}).auth.connectToken(), { token: null, retry: true });
});

test("with an endpoint, the token is fetched before connecting; a failure is reported, and retried unless refused", async () => {
  const ok = session({ authEndpoint: "/token" }, fakeFetch({ status: 200, body: { token: "one" } }));
  assert.deepEqual(await ok.auth.connectToken(), { token: "one", retry: true });
  assert.equal(ok.auth.current, "one");

  const down = session({ authEndpoint: "/token" }, fakeFetch({ status: 502 }));
  assert.deepEqual(await down.auth.connectToken(), { token: undefined, retry: true });
  assert.equal(down.seen.errors[0][0], "auth_endpoint_failed");

  const signedOut = session({ authEndpoint: "/token" }, fakeFetch({ status: 401 }));
  assert.deepEqual(await signedOut.auth.connectToken(), { token: undefined, retry: false });
});

test("token_expiring: the endpoint gives the next token, sent as an auth message on the open session", async () => {
  const s = session({ authEndpoint: "/token" }, fakeFetch({ status: 200, body: { token: "one" } }, { status: 200, body: { token: "two" } }));
  await s.auth.connectToken();
  assert.deepEqual(await s.auth.expiring({ t: "token_expiring", ms: 60000 }), { t: "auth", token: "two" });
  assert.equal(s.auth.current, "two");
  assert.equal(s.fetch.calls.length, 2);
  assert.deepEqual(s.seen.expiring, []);
});

test("token_expiring twice at once asks the endpoint once", async () => {
  const s = session({ authEndpoint: "/token" }, fakeFetch({ status: 200, body: { token: "two" } }));
  const [a, b] = await Promise.all([s.auth.expiring({ ms: 5 }), s.auth.expiring({ ms: 5 })]);
  assert.deepEqual([a, b], [{ t: "auth", token: "two" }, null]);
  assert.equal(s.fetch.calls.length, 1);
});

test("token_expiring with a failing endpoint is reported and sends nothing (the session ends at exp)", async () => {
  const s = session({ authEndpoint: "/token" }, fakeFetch({ status: 503 }));
  assert.equal(await s.auth.expiring({ t: "token_expiring", ms: 1000 }), null);
  assert.deepEqual(s.seen.errors.map((e) => e[0]), ["auth_endpoint_failed"]);
});

test("token_expiring without an endpoint tells the host, which renews by setting token", async () => {
  const s = session({ token: fresh() });
  await s.auth.connectToken();
  assert.equal(await s.auth.expiring({ t: "token_expiring", ms: 59000 }), null);
  assert.deepEqual(s.seen.expiring, [59000]);
  const next = fresh(["kitchen"], { iat: 1 });
  assert.deepEqual(s.auth.renewal(next), { t: "auth", token: next });
  assert.equal(s.auth.current, next);
});

test("a --token secret is not renewed in place (the element reconnects with the new one)", async () => {
  const s = session({ token: "secret-1" });
  await s.auth.connectToken();
  assert.equal(s.auth.renewal("secret-2"), null);
  assert.equal(s.auth.renewal(null), null);
});

test("close 4401: reported with its reason; reconnect only with an endpoint to get a new token", async () => {
  const plain = session({ token: fresh() });
  await plain.auth.connectToken();
  assert.deepEqual(plain.auth.closed({ code: TOKEN_CLOSE, reason: "token_expired" }, true),
    { error: ["token_expired", "the server closed the session: token_expired"], retry: false });
  assert.deepEqual(plain.auth.closed({ code: TOKEN_CLOSE, reason: "" }, true).error[0], "token_expired");

  const renewing = session({ authEndpoint: "/token" }, fakeFetch({ status: 200, body: { token: fresh() } }));
  await renewing.auth.connectToken();
  assert.equal(renewing.auth.closed({ code: TOKEN_CLOSE, reason: "token_expired" }, true).retry, true);
});

test("close 4403 (a hello for another board than the URL's) is board_forbidden, not retried", async () => {
  const s = session({ authEndpoint: "/token" }, fakeFetch({ status: 200, body: { token: fresh() } }));
  await s.auth.connectToken();
  assert.deepEqual(s.auth.closed({ code: BOARD_CLOSE, reason: "board_forbidden" }, true),
    { error: ["board_forbidden", "the server closed the session: board_forbidden"], retry: false });
});

test("a refused upgrade names the cause when the claims show it; other closes reconnect quietly", async () => {
  const other = session({ token: fresh(["garden"]) });
  await other.auth.connectToken();
  assert.deepEqual(other.auth.closed({ code: 1006, reason: "" }, false),
    { error: ["board_forbidden", 'the token does not name board "kitchen"'], retry: false });

  const old = session({ token: jwt({ sub: "a", boards: ["kitchen"], exp: NOW / 1000 - 5 }) });
  await old.auth.connectToken();
  assert.deepEqual(old.auth.closed({ code: 1006, reason: "" }, false), { error: ["token_expired", "the token has expired"], retry: false });

  const good = session({ token: fresh() });
  await good.auth.connectToken();
  assert.deepEqual(good.auth.closed({ code: 1006, reason: "" }, false), { error: null, retry: true });  // the server is away
  assert.deepEqual(good.auth.closed({ code: 1001, reason: "" }, true), { error: null, retry: true });   // a restart
  assert.deepEqual(session({}).auth.closed({ code: 1006, reason: "" }, false), { error: null, retry: true });
});
