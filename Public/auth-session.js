// The element's signed token (issue 42, docs/embedding.md "Signing in"): where it comes from,
// when it is renewed, and what a refusal or a close means. A token comes from the element's
// `token` attribute, or from its `auth-endpoint`: a URL of the host app that the element POSTs
// to with the page's credentials (cookies) and that answers `{"token": "…"}`. Before connecting
// and again when the server warns `{"t": "token_expiring"}`, the endpoint is asked and the new
// token goes to the server as `{"t": "auth", token}`, on the open session: a drag in flight
// goes on. No DOM and no socket: the connection (connection.js) asks and acts on the answers;
// `fetch` and the clock are given, so the Node tests drive it.

/** The close code of a session whose token expired (`token_expired`), or was refused. */
export const TOKEN_CLOSE = 4401;
/** The close code of a session whose hello named another board than its URL (`board_forbidden`). */
export const BOARD_CLOSE = 4403;

/** A JWT's claims, decoded but NOT verified (the server verifies; a page cannot): used only to
 *  say why the server refused an upgrade, which a browser's WebSocket does not tell (a refused
 *  upgrade is a close 1006 like a network failure). Null for what is not a JWT (a `--token`). */
export function readClaims(token) {
  if (typeof token !== "string") return null;
  const parts = token.split(".");
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return null;
  try {
    const b64 = parts[1].replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return claims !== null && typeof claims === "object" && !Array.isArray(claims) ? claims : null;
  } catch {
    return null;
  }
}

/** Whether a token's `boards` claim grants `board`: an id, or a prefix ending in `*`, as the
 *  server reads it (docs/auth.md). */
export function grantsBoard(boards, board) {
  if (!Array.isArray(boards)) return false;
  return boards.some((b) => typeof b === "string"
    && (b.endsWith("*") ? board.startsWith(b.slice(0, -1)) : b === board));
}

/** Why a server most likely refused an upgrade made with `token` for `board` at `nowMs` (the
 *  page's clock): `board_forbidden` (its claims do not name the board), `token_expired` (its
 *  `exp` has passed), or null (not a JWT, or nothing in it explains it: a network failure). */
export function refusalCode(token, board, nowMs) {
  const claims = readClaims(token);
  if (!claims) return null;
  if (!grantsBoard(claims.boards, board)) return "board_forbidden";
  if (typeof claims.exp === "number" && claims.exp * 1000 <= nowMs) return "token_expired";
  return null;
}

/** An error with the code `liftboard-error` carries. */
export class AuthError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** POSTs to the host app's endpoint with the page's credentials and reads `{"token"}`. Rejects
 *  with an AuthError `auth_endpoint_failed` (its message names the status or the reason; never
 *  the body). `retry` on the error: false when the host said no (401, 403: signed out), so
 *  asking again would not help. */
export async function fetchToken(endpoint, fetchImpl) {
  let response;
  try {
    response = await fetchImpl(endpoint, { method: "POST", credentials: "include", headers: { Accept: "application/json" } });
  } catch (e) {
    throw Object.assign(new AuthError("auth_endpoint_failed", `auth-endpoint ${endpoint}: ${e?.message || "no answer"}`), { retry: true });
  }
  if (!response.ok) {
    const refused = response.status === 401 || response.status === 403;
    throw Object.assign(new AuthError("auth_endpoint_failed", `auth-endpoint ${endpoint} answered ${response.status}`), { retry: !refused });
  }
  let body = null;
  try { body = await response.json(); } catch { /* reported below */ }
  if (typeof body?.token !== "string" || body.token.length === 0) {
    throw Object.assign(new AuthError("auth_endpoint_failed", `auth-endpoint ${endpoint} answered no {"token": "…"}`), { retry: true });
  }
  return body.token;
}

/**
 * One element's token. `hooks`: `options()` (the element's: `token`, `authEndpoint`, `board`),
 * `fetch`, `now()` (ms since the epoch), `onError(code, message)` (the element fires
 * `liftboard-error`) and `onExpiring(ms)` (the element fires `liftboard-token-expiring`, for a
 * host that gives the token itself and must renew it).
 */
export class AuthSession {
  #hooks;
  /** The token the open (or opening) session was given, or renewed to. */
  current = null;
  /** A renewal under way (one at a time). */
  #renewing = null;

  constructor(hooks) {
    this.#hooks = hooks;
  }

  /** Resolves to the token to connect with: the attribute's (or null: none), or a new one from
   *  the endpoint; `undefined` when the endpoint failed (the error is reported), with `retry`
   *  false when asking again would not help. */
  async connectToken() {
    const opts = this.#hooks.options();
    if (!opts.authEndpoint) {
      this.current = opts.token || null;
      return { token: this.current, retry: true };
    }
    try {
      this.current = await fetchToken(opts.authEndpoint, this.#hooks.fetch);
      return { token: this.current, retry: true };
    } catch (e) {
      this.#hooks.onError(e.code, e.message);
      return { token: undefined, retry: e.retry !== false };
    }
  }

  /** The server's `token_expiring`: with an endpoint, a new token from it; resolves to the
   *  `{t: "auth", token}` message to send, or null (no endpoint: the host is told and renews by
   *  setting `token`; or the endpoint failed, reported: the session ends at `exp`). */
  async expiring(msg) {
    const opts = this.#hooks.options();
    if (!opts.authEndpoint) {
      this.#hooks.onExpiring(msg.ms);
      return null;
    }
    if (this.#renewing) return null;
    this.#renewing = fetchToken(opts.authEndpoint, this.#hooks.fetch);
    try {
      this.current = await this.#renewing;
      return { t: "auth", token: this.current };
    } catch (e) {
      this.#hooks.onError(e.code, e.message);
      return null;
    } finally {
      this.#renewing = null;
    }
  }

  /** A token the host set while a session is open: renewed in place (`{t: "auth"}`) when both
   *  are JWTs, since a `--token` secret cannot be renewed; null: reconnect instead. */
  renewal(token) {
    if (!token || !readClaims(token) || !readClaims(this.current)) return null;
    this.current = token;
    return { t: "auth", token };
  }

  /**
   * A socket closed: `{code, reason}` its close event, `opened` whether it had opened. Returns
   * `{error: [code, message] | null, retry}`: the error to report, and whether to connect again
   * (with backoff). A token the server refused or ended is reported; the element retries when
   * its endpoint can give a new one, and otherwise waits for the host to set a new `token`.
   */
  closed({ code, reason }, opened) {
    const opts = this.#hooks.options(), endpoint = Boolean(opts.authEndpoint);
    if (code === TOKEN_CLOSE) {
      const why = reason || "token_expired";
      return { error: [why, `the server closed the session: ${why}`], retry: endpoint && why === "token_expired" };
    }
    if (code === BOARD_CLOSE) return { error: ["board_forbidden", `the server closed the session: ${reason || "board_forbidden"}`], retry: false };
    if (opened || !this.current) return { error: null, retry: true };
    const why = refusalCode(this.current, opts.board, this.#hooks.now());
    if (why === "board_forbidden") return { error: [why, `the token does not name board "${opts.board}"`], retry: false };
    if (why === "token_expired") return { error: [why, "the token has expired"], retry: endpoint };
    return { error: null, retry: true };
  }
}
