// The host page's script: loads <liftboard-board> from the Liftboard server (`?server=`, else
// this page's own origin), points the iframe at its /embed, and logs every event.
const server = new URL(new URLSearchParams(location.search).get("server") || location.origin);
const log = document.getElementById("log");
const iframe = document.getElementById("errands");

/** Every event the page saw, in order: {source, type, detail} (tests read it). */
window.hostLog = [];
function record(source, type, detail) {
  window.hostLog.push({ source, type, detail });
  const li = document.createElement("li");
  li.textContent = `${source} ${type} ${JSON.stringify(detail)}`;
  log.prepend(li);
}

// The elements' events bubble out of their shadow roots to the document.
const EVENTS = ["lift", "move", "drop", "cancel", "commit", "connection", "error"].map((e) => `liftboard-${e}`);
for (const type of EVENTS) document.addEventListener(type, (ev) => record(ev.target.id, type, ev.detail));

// The iframe's events come as messages; only the Liftboard server's origin is believed.
window.addEventListener("message", (ev) => {
  if (ev.origin !== server.origin || ev.source !== iframe.contentWindow) return;
  if (ev.data?.type === "resize") iframe.style.height = `${ev.data.height}px`;
  record("errands", ev.data?.type, ev.data?.detail);
});
// A host page asked for the debugging hooks (`?debug=1`) asks its iframe for them too.
const debug = new URLSearchParams(location.search).get("debug") === "1" ? "&debug=1" : "";
iframe.src = new URL(`/embed?board=errands${debug}`, server).href;

for (const b of document.querySelectorAll("[data-undo]")) {
  b.addEventListener("click", () => {
    const id = b.dataset.undo;
    if (id === "errands") iframe.contentWindow.postMessage({ type: "undo" }, server.origin);
    else document.getElementById(id).undo();
  });
}
for (const b of document.querySelectorAll("[data-order]")) {
  b.addEventListener("click", () => record(b.dataset.order, "order()", document.getElementById(b.dataset.order).order()));
}

await import(new URL("/liftboard.js", server).href);
