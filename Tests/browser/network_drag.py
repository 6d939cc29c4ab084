"""A steady mouse drag in headless Chromium, through a delaying proxy, measured per animation
frame from the page's own trace (`window.__liftboard.trace`): the distance between the pointer
(plus the grab offset of the lift) and the drawn snapshot center, the frames the snapshot takes
to reach the pointer after it stops, and pointerdown to the first frame with the snapshot drawn.
Used by scripts/bench-page and Tests/browser/test_prediction.py."""
import json
import math
import time

from liftboard_server import wait_for

ROW_PITCH = 57          # the default list: rowHeight 56 + spacing 1
FIRST_ROW_TOP = 32      # below the section header


def thousand_rows_board(board_id="rows"):
    return {"id": board_id, "layout": "list",
            "sections": [{"id": "all", "title": "All", "items": [{"id": f"r{i}", "label": f"Row {i}"} for i in range(1000)]}]}


def row_center_y(index):
    return FIRST_ROW_TOP + ROW_PITCH * index + 28


def _mouse(driver, kind, x, y, buttons):
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1 if kind != "mouseMoved" else 0,
        "pointerType": "mouse"})


def steady_drag(driver, origin, start, distance, speed=240.0, settle_s=0.6):
    """Presses at `start` (canvas coordinates), holds still until the server's `lift` has reached
    the page (no wall-clock hold: a busy browser can stamp its `down` late, and a move stamped
    less than `pressMs` after it pans), moves down `distance` px at
    `speed` px/s (a position every ~8 ms by the wall clock), waits `settle_s`, releases.
    Returns the page's trace and the pointer's displacement."""
    x, y0 = origin[0] + start[0], origin[1] + start[1]
    driver.execute_script("window.__liftboard.trace = [];")
    _mouse(driver, "mousePressed", x, y0, 1)
    wait_for(lambda: driver.execute_script("return window.__liftboard.lifts.size") == 1,
             what="the server's lift of the long press (the pointer held still)")
    t0 = time.monotonic()
    duration = distance / speed
    y = y0
    while True:
        t = time.monotonic() - t0
        if t >= duration:
            break
        y = y0 + round(speed * t, 2)
        _mouse(driver, "mouseMoved", x, y, 1)
        time.sleep(0.008)
    y = y0 + distance
    _mouse(driver, "mouseMoved", x, y, 1)
    time.sleep(settle_s)
    trace = driver.execute_script("const t = window.__liftboard.trace; window.__liftboard.trace = null; return JSON.stringify(t);")
    _mouse(driver, "mouseReleased", x, y, 0)
    return json.loads(trace), distance


def message_counts(driver):
    """The messages the page has sent and received on its connection so far."""
    return driver.execute_script("return [window.__liftboard.sent, window.__liftboard.received];")


def analyse(trace, steady_skip_ms=250):
    """Figures from a trace: lift_ms, gaps during steady motion (mean, max), catch-up frames."""
    lifted = [e for e in trace if e["snapshots"]]
    if not lifted:
        raise AssertionError("no snapshot was ever drawn")
    down = trace[0]["lastPointerDown"]
    # Wall time in the frame callback: the frame's own timestamp can precede the timer that woke it.
    lift_ms = lifted[0]["at"] - down
    # The grab: snapshot center minus pointer, in the last frame before the pointer moves.
    start_pointer = lifted[0]["lastPointer"]
    moving = [i for i, e in enumerate(trace) if e["lastPointer"] != start_pointer]
    if not moving:
        raise AssertionError("the pointer never moved")
    first_move = moving[0]
    before = trace[first_move - 1]
    s0 = before["snapshots"][0]
    grab = (s0["x"] - start_pointer["x"], s0["y"] - start_pointer["y"])
    lock_x = s0["x"]

    def gap(e):
        if not e["snapshots"]:
            return math.inf
        s, p = e["snapshots"][0], e["lastPointer"]
        return math.hypot(s["x"] - lock_x, s["y"] - (p["y"] + grab[1]))

    last_pointer = trace[-1]["lastPointer"]
    stop = next(i for i, e in enumerate(trace) if e["lastPointer"] == last_pointer)
    t_start = trace[first_move]["now"] + steady_skip_ms
    steady = [gap(e) for e in trace[first_move:stop] if e["now"] >= t_start]
    catch_up = next((k for k, e in enumerate(trace[stop:]) if gap(e) <= 1), None)
    return {"lift_ms": lift_ms, "gap_mean": sum(steady) / max(1, len(steady)), "gap_max": max(steady, default=math.nan),
            "frames": len(steady), "catch_up_frames": catch_up}
