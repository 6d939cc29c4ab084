"""Helpers to drive the page as a person would and to read its state."""

import bidi
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from liftboard_server import wait_for  # noqa: F401 (the browser tests import it from here)


# The client state of a board: the demo page's (`window.__liftboard`), or the `state` of the
# <liftboard-board> a CSS selector names.
STATE_JS = "const sel = arguments[0]; const st = sel ? document.querySelector(sel)?.state : window.__liftboard;"


def scene_cells(driver, board=None):
    """The cells the page has been told about: id -> frame, section, index, hidden."""
    return driver.execute_script(STATE_JS + """
        const s = st && st.scene;
        if (!s) return null;
        const out = {};
        for (const c of s.cells.values()) out[c.id] = {frame: c.frame.to, section: c.section, index: c.index, hidden: c.hidden};
        return out;""", board)


def board_state(driver, expression, board=None):
    """`expression` evaluated with `st`, a board's client state (dispatch.js)."""
    return driver.execute_script(STATE_JS + f"return {expression};", board)


def debug_query(query=""):
    """`query` with `debug=1`: the page's hooks (`window.__liftboard`, `measureDraw`) are there only then."""
    return (query + "&" if query else "?") + "debug=1"


def open_board(driver, server, query=""):
    driver.get(server.http + "/" + debug_query(query))
    wait_for(lambda: (scene_cells(driver) or {}).get("milk"))
    return canvas_origin(driver)


def canvas_origin(driver, board="#board"):
    r = driver.execute_script("const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top];", board)
    return r[0], r[1]


def cell_center(driver, item, board=None):
    f = scene_cells(driver, board)[item]["frame"]
    scroll = board_state(driver, "st.scene.scroll.to", board)
    x0, y0 = canvas_origin(driver, board or "#board")
    return x0 + f["x"] + f["w"] / 2, y0 + f["y"] + f["h"] / 2 - scroll


def pointer(driver, kind, steps, button=0):
    """One pointer's WebDriver actions: ("move", x, y) to a viewport point (250 ms, Selenium's
    default), ("down",), ("up",), ("pause", seconds); `kind` touch, mouse or pen; `button` 0
    primary, 2 secondary. Through Selenium, or a Firefox page's own BiDi client."""
    if isinstance(driver, bidi.Page):
        driver.pointer(kind, steps, button)
        return
    kinds = {"touch": interaction.POINTER_TOUCH, "mouse": interaction.POINTER_MOUSE, "pen": interaction.POINTER_PEN}
    ab = ActionBuilder(driver, mouse=PointerInput(kinds[kind], kind))
    for s in steps:
        if s[0] == "move":
            ab.pointer_action.move_to_location(int(s[1]), int(s[2]))
        elif s[0] == "down":
            ab.pointer_action.pointer_down(button=button)
        elif s[0] == "up":
            ab.pointer_action.pointer_up(button=button)
        else:
            ab.pointer_action.pause(s[1])
    ab.perform()


def keys(driver, *keys, hold=()):
    """Keys (Selenium's `Keys`) pressed and released in turn to the focused element, with the
    modifiers in `hold` held down throughout."""
    if isinstance(driver, bidi.Page):
        driver.keys(*keys, hold=hold)
        return
    from selenium.webdriver.common.action_chains import ActionChains
    chain = ActionChains(driver)
    for m in hold:
        chain.key_down(m)
    chain.send_keys(*keys)
    for m in hold:
        chain.key_up(m)
    chain.perform()


def click_at(driver, at):
    """A primary mouse click at viewport point `at`."""
    pointer(driver, "mouse", [("move", *at), ("down",), ("up",)])


def touch_tap(driver, at):
    """A finger down and up at viewport point `at`, 50 ms apart as the driver counts."""
    pointer(driver, "touch", [("move", *at), ("down",), ("pause", 0.05), ("up",)])


def long_press_drag(driver, start, end, kind="touch", hold=0.8, steps=12, pause=0.03):
    """Pointer down, hold, move in steps, up: WebDriver pointer actions of the given kind."""
    moves = []
    for k in range(1, steps + 1):
        moves += [("move", start[0] + (end[0] - start[0]) * k / steps, start[1] + (end[1] - start[1]) * k / steps),
                  ("pause", pause)]
    pointer(driver, kind, [("move", *start), ("down",), ("pause", hold), *moves, ("pause", 0.1), ("up",)])


def right_press(driver, at, hold=0.0, to=None):
    """The secondary mouse button pressed at `at`, held `hold` s, moved to `to`, released."""
    steps = [("move", *at), ("down",)] + ([("pause", hold)] if hold else []) + ([("move", *to)] if to is not None else [])
    pointer(driver, "mouse", steps + [("up",)], button=2)


def ctrl_click(driver, point):
    """A mouse click at viewport `point` with Ctrl held: the key and the mouse in step, tick by
    tick, so that Ctrl is down through the click (it selects a card for a group drag)."""
    ac = ActionChains(driver)
    ac.key_down(Keys.CONTROL)
    for act in (lambda p: p.move_to_location(int(point[0]), int(point[1])), lambda p: p.pointer_down(), lambda p: p.pointer_up()):
        act(ac.w3c_actions.pointer_action)
        ac.w3c_actions.key_action.pause()
    ac.key_up(Keys.CONTROL)
    ac.perform()
