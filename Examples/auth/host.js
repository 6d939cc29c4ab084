// The host page's script: shows the board's connection and what it reports. The element gets
// its token from this app's /token (auth-endpoint) by itself, and renews it when Liftboard
// says it is expiring: nothing to do here but listen.
const board = document.getElementById("board");
const status = document.getElementById("status");

/** What the page saw, in order (tests read it): {type, detail}. */
window.hostLog = [];
for (const type of ["liftboard-connection", "liftboard-error", "liftboard-commit"]) {
  board.addEventListener(type, (ev) => {
    window.hostLog.push({ type, detail: ev.detail });
    if (type === "liftboard-connection") status.textContent = ev.detail.state;
    // auth_endpoint_failed (signed out here), board_forbidden, token_expired, role_forbids …
    if (type === "liftboard-error") status.textContent = `${ev.detail.code}: ${ev.detail.message}`;
    if (type === "liftboard-commit" && ev.detail.name) status.textContent = `moved by ${ev.detail.name}`;
  });
}
