"""A small WebDriver BiDi client of the project's own, for the browser tests' third engine:
Firefox ESR. Debian ships no geckodriver, so Selenium cannot drive Firefox there; Firefox speaks
WebDriver BiDi itself (`--remote-debugging-port`), over one WebSocket (the `websockets`
package's synchronous client).

`Firefox` is one headless `firefox-esr` process with a private profile; `Page` is one tab of
it, in a user context of its own (its own cookies and storage), answering the few calls of
Selenium's WebDriver the tests make (`get`, `execute_script`, `find_element`, screenshots,
`get_log`), plus `pointer` and `keys` for input actions. Every wait is bounded and fails with
what it waited for; `close` kills the browser's process group and removes its profile."""
import base64
import contextlib
import ctypes
import json
import math
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


class BidiError(RuntimeError):
    """A command Firefox refused, or the browser gone: the command, the error code, the message."""

    def __init__(self, method, code, message):
        super().__init__(f"{method}: {code}: {message}")
        self.method, self.code = method, code


class BidiTimeout(BidiError):
    """Firefox did not answer within the bound."""


class ScriptError(BidiError):
    """A script run in the page threw."""


LISTENING = re.compile(r"WebDriver BiDi listening on (ws://\S+)")
DARK = {"ui.systemUsesDarkTheme": 1, "layout.css.prefers-color-scheme.content-override": 0}


_prctl = ctypes.CDLL(None).prctl  # looked up here: the child of a threaded process should not dlopen


def _die_with_parent():
    """In the child, before exec: SIGKILL when the thread that started it ends (pytest killed)."""
    _prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class Firefox:
    def __init__(self, prefs=None, binary="firefox-esr", start_timeout=30, timeout=30):
        self.timeout = timeout
        self.logs = {}  # context -> log.entryAdded parameters not yet read
        self._id = 0
        self._stack = contextlib.ExitStack()
        self.profile = tempfile.mkdtemp(prefix="liftboard-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for k, v in (prefs or {}).items():
                f.write(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n")
        self.stderr = []
        self._listening = threading.Event()
        try:
            self.proc = subprocess.Popen(
                [binary, "--headless", "--remote-debugging-port=0", "--profile", self.profile],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                errors="replace", start_new_session=True, preexec_fn=_die_with_parent)
        except FileNotFoundError:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise BidiError("start", "no browser", f"{binary} is not installed (scripts/setup installs firefox-esr)") from None
        threading.Thread(target=self._read_stderr, daemon=True).start()
        try:
            if not self._listening.wait(start_timeout):
                raise BidiTimeout("start", "no listening line", f"{binary} did not say 'WebDriver BiDi "
                                  f"listening' within {start_timeout} s; its stderr: {''.join(self.stderr[-20:])}")
            url = next(m.group(1) for m in map(LISTENING.search, self.stderr) if m)
            self.ws = self._stack.enter_context(connect(url + "/session", max_size=None, open_timeout=10))
            self.command("session.new", capabilities={})
            self.command("session.subscribe", events=["log.entryAdded"])
        except BaseException:
            self.close()
            raise

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line)
            if LISTENING.search(line):
                self._listening.set()
        self._listening.set()  # the browser exited: the waiter finds no listening line

    def command(self, method, timeout=None, **params):
        """Sends one command and returns its result; events read meanwhile are kept."""
        timeout = timeout or self.timeout
        self._id += 1
        ident = self._id
        try:
            self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
            end = time.monotonic() + timeout
            while True:
                left = end - time.monotonic()
                if left <= 0:
                    raise BidiTimeout(method, "timeout", f"no answer from Firefox within {timeout} s")
                try:
                    m = json.loads(self.ws.recv(timeout=left))
                except TimeoutError:
                    continue
                if m.get("type") == "event":
                    if m["method"] == "log.entryAdded":
                        self.logs.setdefault(m["params"]["source"].get("context"), []).append(m["params"])
                elif m.get("id") == ident:
                    if m.get("type") == "error":
                        raise BidiError(method, m["error"], m["message"])
                    return m["result"]
        except ConnectionClosed as e:
            raise BidiError(method, "connection closed", f"Firefox hung up ({e}); exit status {self.proc.poll()}, "
                            f"stderr: {''.join(self.stderr[-20:])}") from None

    def page(self, width=420, height=760, dpr=1):
        return Page(self, width, height, dpr)

    def close(self):
        """Kills the browser (its whole process group) and removes its profile."""
        with contextlib.suppress(Exception):
            self._stack.close()
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        shutil.rmtree(self.profile, ignore_errors=True)


def to_bidi(v):
    """A Python value as a BiDi LocalValue."""
    if v is None:
        return {"type": "null"}
    if isinstance(v, Element):
        return {"sharedId": v.id}
    if isinstance(v, bool):
        return {"type": "boolean", "value": v}
    if isinstance(v, (int, float)):
        if isinstance(v, float) and not math.isfinite(v):
            return {"type": "number", "value": "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")}
        return {"type": "number", "value": v}
    if isinstance(v, str):
        return {"type": "string", "value": v}
    if isinstance(v, (list, tuple)):
        return {"type": "array", "value": [to_bidi(x) for x in v]}
    if isinstance(v, dict):
        return {"type": "object", "value": [[str(k), to_bidi(x)] for k, x in v.items()]}
    raise TypeError(f"cannot pass {type(v).__name__} to a script")


def from_bidi(page, r, seen=None):
    """A BiDi RemoteValue as a Python value (an element as an `Element`), as Selenium returns it.
    An object met twice is serialized once, then named by its `internalId`: `seen` resolves it."""
    seen = {} if seen is None else seen
    t, v = r["type"], r.get("value")
    if "internalId" in r and "value" not in r:
        return seen[r["internalId"]]
    if t in ("undefined", "null"):
        return None
    if t in ("string", "boolean", "date"):
        return v
    if t == "number":
        return float(v.replace("Infinity", "inf")) if isinstance(v, str) else v
    if t in ("array", "set", "nodelist", "htmlcollection", "object", "map"):
        out = [] if t not in ("object", "map") else {}
        if "internalId" in r:
            seen[r["internalId"]] = out
        for x in v or []:
            if isinstance(out, list):
                out.append(from_bidi(page, x, seen))
            else:
                out[x[0] if isinstance(x[0], str) else from_bidi(page, x[0], seen)] = from_bidi(page, x[1], seen)
        return out
    if t == "node":
        return Element(page, r["sharedId"])
    raise TypeError(f"a script returned a {t}, which the tests do not read")


class Page:
    """One tab in a user context of its own, with the calls of Selenium's WebDriver the tests use."""

    def __init__(self, firefox, width, height, dpr):
        self.ff, self.dpr = firefox, dpr
        self.user_context = firefox.command("browser.createUserContext")["userContext"]
        self.context = firefox.command("browsingContext.create", type="tab", userContext=self.user_context)["context"]
        self.set_window_size(width, height)

    def set_window_size(self, width, height):
        """The viewport's size in CSS pixels (Selenium sets the window's; the tests read the layout)."""
        self.ff.command("browsingContext.setViewport", context=self.context,
                        viewport={"width": width, "height": height}, devicePixelRatio=self.dpr)

    def get(self, url):
        self.ff.command("browsingContext.navigate", context=self.context, url=url, wait="complete")

    def call(self, declaration, *args):
        r = self.ff.command("script.callFunction", functionDeclaration=declaration, awaitPromise=True,
                            target={"context": self.context}, arguments=[to_bidi(a) for a in args])
        if r["type"] == "exception":
            raise ScriptError("script.callFunction", "javascript error", r["exceptionDetails"]["text"])
        return from_bidi(self, r["result"])

    def execute_script(self, script, *args):
        """`script` as a function body, with `arguments`; a returned promise is awaited."""
        return self.call("function() {\n" + script + "\n}", *args)

    def execute_async_script(self, script, *args):
        """`script` with a callback as its last argument, whose value is returned."""
        return self.call("function(...args) { return new Promise((done) => (function() {\n" + script +
                         "\n}).apply(this, [...args, done])); }", *args)

    def find_element(self, by, value):
        find = {"id": "document.getElementById(v)", "css selector": "document.querySelector(v)"}[by]
        el = self.execute_script(f"const v = arguments[0]; return {find};", value)
        if el is None:
            raise BidiError("find_element", "no such element", f"{by} {value!r}")
        return el

    def pointer(self, kind, steps, button=0, move_ms=250):
        """One pointer's actions: ("move", x, y) in viewport pixels (each taking `move_ms`, as
        Selenium's), ("down",), ("up",), ("pause", seconds)."""
        actions = []
        for s in steps:
            if s[0] == "move":
                actions.append({"type": "pointerMove", "x": int(s[1]), "y": int(s[2]), "duration": move_ms})
            elif s[0] in ("down", "up"):
                actions.append({"type": "pointerDown" if s[0] == "down" else "pointerUp", "button": button})
            else:
                actions.append({"type": "pause", "duration": int(s[1] * 1000)})
        self._perform({"type": "pointer", "id": kind, "parameters": {"pointerType": kind}, "actions": actions})

    def keys(self, *keys, hold=()):
        """Each key pressed and released (WebDriver key values: Selenium's `Keys`), with the
        modifiers in `hold` held down throughout."""
        actions = [{"type": "keyDown", "value": m} for m in hold]
        for k in "".join(keys):
            actions += [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]
        actions += [{"type": "keyUp", "value": m} for m in hold]
        self._perform({"type": "key", "id": "keyboard", "actions": actions})

    def _perform(self, source):
        self.ff.command("input.performActions", context=self.context, actions=[source])

    def get_screenshot_as_png(self):
        return base64.b64decode(self.ff.command("browsingContext.captureScreenshot", context=self.context)["data"])

    def save_screenshot(self, path):
        with open(path, "wb") as f:
            f.write(self.get_screenshot_as_png())

    def get_log(self, kind):
        """The page's console and JavaScript errors since the last call, in Selenium's form
        (level SEVERE for an error). A script run first brings in what the page logged before it."""
        assert kind == "browser", kind
        self.execute_script("return 0")
        levels = {"error": "SEVERE", "warn": "WARNING"}
        return [{"level": levels.get(e["level"], "INFO"), "message": e.get("text") or ""}
                for e in self.ff.logs.pop(self.context, [])]

    def quit(self):
        """Closes the tab with its user context; the browser stays for the next page."""
        self.ff.command("browser.removeUserContext", userContext=self.user_context)
        self.ff.logs.pop(self.context, None)


class Element:
    """An element of a page (a BiDi shared reference), with Selenium's few element calls."""

    def __init__(self, page, shared_id):
        self.page, self.id = page, shared_id

    def get_attribute(self, name):
        """The property when it is a plain value (`textContent`), else the attribute, as Selenium's."""
        return self.page.call("""function(el, n) {
            const p = el[n];
            return p === undefined || p === null || typeof p === "object" || typeof p === "function" ? el.getAttribute(n) : String(p);
        }""", self, name)

    def click(self):
        """A mouse click at the center of the element's box, scrolled into view first."""
        x, y = self.page.call("""function(el) {
            el.scrollIntoView({block: "nearest", inline: "nearest"});
            const r = el.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
        }""", self)
        self.page.pointer("mouse", [("move", x, y), ("down",), ("up",)], move_ms=0)

    def send_keys(self, *keys):
        """Focuses the element unless it has the focus already, then presses the keys."""
        self.page.call("function(el) { if (document.activeElement !== el) el.focus(); }", self)
        self.page.keys(*keys)
