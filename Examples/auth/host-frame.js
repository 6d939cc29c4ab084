// The iframe page's script (`/frame`): Liftboard's `/embed?board=B&auth=parent` waits for a
// token from this page. This page fetches one from its own /token (with its cookies) and posts
// it down when the frame asks (`token-request`) and when the token runs out
// (`liftboard-token-expiring`). Messages count only from that frame at Liftboard's origin, and
// go to that origin only. (The Liftboard server runs with --embed-origin set to this app.)
const frame = document.getElementById("frame");
const status = document.getElementById("status");
const origin = new URL(frame.dataset.src).origin;

/** What the page heard from the frame, in order (tests read it). */
window.hostLog = [];

async function sendToken() {
  const r = await fetch("/token", { method: "POST", credentials: "include" });
  if (!r.ok) { status.textContent = `auth_endpoint_failed: /token answered ${r.status}`; return; }
  const { token } = await r.json();
  frame.contentWindow.postMessage({ type: "token", token }, origin);
}

window.addEventListener("message", (ev) => {
  if (ev.origin !== origin || ev.source !== frame.contentWindow) return;
  const { type, detail } = ev.data ?? {};
  window.hostLog.push({ type, detail });
  if (type === "token-request" || type === "liftboard-token-expiring") sendToken();
  else if (type === "resize") frame.style.height = `${ev.data.height}px`;
  else if (type === "liftboard-connection") status.textContent = detail.state;
  else if (type === "liftboard-error") status.textContent = `${detail.code}: ${detail.message}`;
});
// Listening first, then loading: the frame's first message cannot be missed.
frame.src = frame.dataset.src;
