"""A tree's frame cost against a list's in headless Chromium (issue 43, item 7: "the page draws
it at the list's frame cost"), for `scripts/bench-page --trees`. Three boards of 100,000 items,
rows 12 px tall in a window 12,000 px tall (about 1,000 rows visible): a flat list, a tree
mostly expanded and a tree mostly collapsed. Per board: the draw time of the still board (the
page's `measureDraw`) and of every frame drawn during a steady mouse drag of a row 30 rows down
and back (the page's `drawMs`)."""
import itertools
import json
import os
import pathlib
import statistics
import tempfile
import time

from conftest import make_driver
from liftboard_server import RunningServer, wait_for

ROW = 12                    # px: a row, no spacing
HEADER = 24
WINDOW = (1000, 12000)      # about 1,000 rows of 12 px in view
STILL_FRAMES = 60
METRICS = {"list": {"rowHeight": ROW, "headerHeight": HEADER, "spacing": 0}}


def flat_board(n=100_000):
    return {"id": "flat", "layout": "list", **METRICS,
            "sections": [{"id": "all", "title": "All", "items": [{"id": f"r{i}", "label": f"Row {i}"} for i in range(n)]}]}


def _block(prefix, branching, depth, collapsed, labels):
    """A complete tree: `branching` children a node down to `depth`; ids under `prefix`, labels
    "Row N" in pre-order as the list's (text costs by its length: the same lengths in both)."""
    node = {"id": prefix, "label": f"Row {next(labels)}"}
    if depth > 0:
        node["children"] = [_block(f"{prefix}.{k}", branching, depth - 1, False, labels) for k in range(branching)]
        if collapsed:
            node["collapsed"] = True
    return node


def expanded_board():
    """826 blocks of a ternary tree 4 levels deep (121 nodes each, 99,946 in all), every row
    shown: a row draws up to four guides, a third of the rows a chevron."""
    labels = itertools.count()
    items = [_block(f"e{b}", 3, 4, False, labels) for b in range(826)]
    return {"id": "expanded", "layout": "tree", "tree": {"indent": 24}, **METRICS,
            "sections": [{"id": "all", "title": "All", "items": items}]}


def collapsed_board():
    """2,500 blocks of 40 (a ternary tree 3 levels deep; 100,000 nodes), every block collapsed
    but each 50th: 4,450 rows shown, most of them a collapsed row with a chevron."""
    labels = itertools.count()
    items = [_block(f"c{b}", 3, 3, b % 50 != 0, labels) for b in range(2500)]
    return {"id": "collapsed", "layout": "tree", "tree": {"indent": 24}, **METRICS,
            "sections": [{"id": "all", "title": "All", "items": items}]}


def count(items):
    return sum(1 + count(i.get("children", [])) for i in items)


def _mouse(driver, kind, x, y, buttons):
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons,
        "clickCount": 0 if kind == "mouseMoved" else 1, "pointerType": "mouse"})


VISIBLE_JS = """
    const s = window.__liftboard.scene, h = document.getElementById('board').clientHeight;
    let n = 0, deep = 0;
    for (const c of s.cells.values()) {
      const f = c.frame.to;
      if (!c.hidden && f.y < s.scroll.to + h && f.y + f.h > s.scroll.to) { n++; deep = Math.max(deep, c.depth ?? 0); }
    }
    return [n, s.cells.size, deep, h];"""

# The row to drag: a leaf (no subtree) shown near the middle of the view, else any row there.
PICK_JS = """
    const s = window.__liftboard.scene, h = document.getElementById('board').clientHeight, mid = s.scroll.to + h / 2;
    let best = null;
    for (const c of s.cells.values()) {
      const f = c.frame.to;
      if (c.hidden || f.y < mid - 200 || f.y > mid + 200) continue;
      const score = (c.hasChildren ? 1000 : 0) + Math.abs(f.y - mid);
      if (!best || score < best.score) best = {id: c.id, score, x: f.x + f.w / 2, y: f.y + f.h / 2 - s.scroll.to, depth: c.depth ?? 0, kids: !!c.hasChildren};
    }
    return best;"""


def _children(pid):
    out = []
    for task in pathlib.Path(f"/proc/{pid}/task").iterdir():
        kids = (task / "children").read_text().split()
        out += [int(k) for k in kids]
    return out


def renderers(driver):
    """The pids of the browser's renderer processes (under chromedriver's process)."""
    todo, found = [driver.service.process.pid], []
    while todo:
        pid = todo.pop()
        try:
            todo += _children(pid)
            if b"--type=renderer" in pathlib.Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


def cpu_seconds(pids):
    """User plus system CPU the processes have used (s): what a frame costs the machine,
    however busy it is, where the wall clock also counts the time other processes ran."""
    total = 0
    for pid in pids:
        try:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


# Draws the still board `n` times, each flushed to its pixels (getImageData): the page's draw
# and the canvas's raster, the whole frame's work. Returns the page's own draw times.
FLUSHED_JS = """
    const n = arguments[0], st = window.__liftboard;
    const ctx = document.getElementById('board').shadowRoot.querySelector('canvas').getContext('2d');
    const ms = [];
    for (let k = 0; k < n; k++) { ms.push(st.measureDraw(1).median); ctx.getImageData(0, 0, 1, 1); }
    return ms;"""


def percentile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))]


def measure(driver, server, board, rows=30, speed=240.0):
    """One board's figures on a freshly loaded page."""
    driver.get(server.http + f"/?board={board}&debug=1")
    wait_for(lambda: driver.execute_script("return !!(window.__liftboard && window.__liftboard.scene.cells.size > 0 && window.__liftboard.config)"),
             timeout=60, what=f"the {board} board's rows on the page")
    visible, known, deepest, height = driver.execute_script(VISIBLE_JS)
    pids = renderers(driver)
    driver.execute_script(FLUSHED_JS, 5)
    cpu0 = cpu_seconds(pids)
    idle = driver.execute_script(FLUSHED_JS, STILL_FRAMES)
    idle_cpu = (cpu_seconds(pids) - cpu0) * 1000 / STILL_FRAMES
    pick = driver.execute_script(PICK_JS)
    r = driver.execute_script("const r = document.getElementById('board').getBoundingClientRect(); return [r.left, r.top];")
    x, y0 = r[0] + pick["x"], r[1] + pick["y"]
    _mouse(driver, "mouseMoved", x, y0, 0)
    _mouse(driver, "mousePressed", x, y0, 1)
    wait_for(lambda: driver.execute_script("return window.__liftboard.lifts.size") == 1, timeout=20,
             what=f"the server's lift of {pick['id']} (the pointer held still)")
    driver.execute_script("window.__liftboard.drawMs = [];")
    cpu0 = cpu_seconds(pids)
    distance, duration = rows * ROW, rows * ROW / speed
    for sign in (1, -1):
        start, t0 = (y0 if sign > 0 else y0 + distance), time.monotonic()
        while (t := time.monotonic() - t0) < duration:
            _mouse(driver, "mouseMoved", x, start + sign * speed * t, 1)
            time.sleep(0.008)
    _mouse(driver, "mouseMoved", x, y0, 1)
    time.sleep(0.3)
    drag = driver.execute_script("const d = window.__liftboard.drawMs; window.__liftboard.drawMs = []; return d;")
    drag_cpu = (cpu_seconds(pids) - cpu0) * 1000 / len(drag)
    _mouse(driver, "mouseReleased", x, y0, 0)
    wait_for(lambda: driver.execute_script("return window.__liftboard.lifts.size") == 0, timeout=20, what="the drop")
    return {"visible": visible, "known": known, "deepest": deepest, "height": height, "lifted": pick,
            "idle": statistics.median(idle), "idle95": percentile(idle, 0.95), "idle_cpu": idle_cpu,
            "drag": statistics.median(drag), "drag95": percentile(drag, 0.95), "drag_cpu": drag_cpu, "frames": len(drag)}


def tree_bench(rounds=3, compare_public=None):
    """`compare_public`: a folder of another page's files (main's Public/, say), served by a
    second server on the same boards and measured in the same rounds."""
    boards = [("list", flat_board()), ("tree, mostly expanded", expanded_board()), ("tree, mostly collapsed", collapsed_board())]
    load0 = pathlib.Path("/proc/loadavg").read_text().split()[:3]
    began = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    with tempfile.TemporaryDirectory() as tmp:
        dirs = pathlib.Path(tmp) / "boards"
        dirs.mkdir()
        for _, b in boards:
            (dirs / f"{b['id']}.json").write_text(json.dumps(b))
        # A debug build reads the 300,000 items slowly.
        pages = [("this page", RunningServer("--boards", str(dirs), data_dir=pathlib.Path(tmp) / "data").start(timeout=300))]
        if compare_public:
            pages.insert(0, ("compared", RunningServer("--boards", str(dirs), "--public", str(compare_public),
                                                       data_dir=pathlib.Path(tmp) / "data2").start(timeout=300)))
        driver = make_driver(*WINDOW)
        runs = {}
        try:
            for k in range(rounds):
                for name, b in boards:
                    for page, server in pages:
                        m = measure(driver, server, b["id"])
                        runs.setdefault((name, page), []).append(m)
                        print(f"round {k + 1} {name} ({page}): {json.dumps(m)}", flush=True)
        finally:
            driver.quit()
            for _, server in pages:
                server.stop()
    load1 = pathlib.Path("/proc/loadavg").read_text().split()[:3]
    keys = ("idle", "idle_cpu", "drag", "drag_cpu", "frames")
    med = {key: {k: statistics.median(m[k] for m in ms) for k in keys} for key, ms in runs.items()}
    print(f"\n{began}, {rounds} rounds, load average {' '.join(load0)} at the start, {' '.join(load1)} at the end")
    print("| board | page | items | rows in view (deepest) | still frame: CPU / draw | drag frame: CPU / draw (frames) | against the list: still / drag (CPU) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, b in boards:
        for page, _ in pages:
            m, base, first = med[(name, page)], med[("list", page)], runs[(name, page)][0]
            ratio = "" if name == "list" else f"{m['idle_cpu'] / base['idle_cpu']:.2f} / {m['drag_cpu'] / base['drag_cpu']:.2f}"
            print(f"| {name} | {page} | {count(b['sections'][0]['items']):,} | {first['visible']:,} ({first['deepest']}) | "
                  f"{m['idle_cpu']:.1f} / {m['idle']:.1f} ms | {m['drag_cpu']:.1f} / {m['drag']:.1f} ms ({m['frames']:.0f}) | {ratio} |")
