"""Rich cells (issue 25): a board whose cards carry detail, image, badge, tags and accent renders
them in a list and in a grid, in light and dark, at a devicePixelRatio of 1 and 2, read from
the screenshots' pixels where the layout puts each part; a failed image draws its placeholder
and the rest of the board draws; the "⋯" button opens "Move to…" for a finger; the page's
hooks exist only with ?debug=1.

Dark and dpr 2: Chromium through CDP (Emulation.setEmulatedMedia, setDeviceMetricsOverride);
WebKitGTK through its process's environment (GTK_THEME=Adwaita:dark makes
prefers-color-scheme dark, GDK_SCALE=2 a devicePixelRatio of 2); Firefox ESR through BiDi's
setViewport (the ratio) and a dark profile's browser (conftest.firefox_page)."""
import io
import json
import time

import pytest

from conftest import firefox_page, make_driver
from liftboard_server import RunningServer
from pages import board_state, canvas_origin, debug_query, touch_tap, wait_for

BOTH = pytest.mark.engines("chromium", "webkit")
THREE = pytest.mark.engines("chromium", "webkit", "firefox")
GREEN = "#22aa44"  # the one image that loads: a square of this color
ITEMS = [
    {"id": "full", "label": "A card with everything on it", "height": 96,
     "detail": "A second line that is long enough to wrap onto a third, which the card must clip away",
     "image": "/media/green.svg", "badge": "7", "accent": "#ff00ff",
     "tags": [{"text": "red", "color": "#e01010"}, {"text": "blue", "color": "#1030e0"}]},
    {"id": "broken", "label": "Its image is missing", "height": 76, "detail": "A placeholder stands in",
     "image": "/media/missing.png", "accent": "#00c8c8"},
    {"id": "plain", "label": "A plain bar", "color": "#f4b400"},
]


def board(board_id, layout):
    b = {"id": board_id, "layout": layout, "grid": {"itemWidth": 180, "itemHeight": 200, "spacing": 8},
         "sections": [{"id": "todo", "title": "To do", "subtitle": "this week", "items": ITEMS},
                      {"id": "done", "title": "Done", "items": []}]}
    return b


@pytest.fixture
def rich_server(tmp_path):
    boards, media = tmp_path / "boards", tmp_path / "media"
    boards.mkdir()
    media.mkdir()
    (boards / "rich.json").write_text(json.dumps(board("rich", "list")))
    (boards / "richgrid.json").write_text(json.dumps(board("richgrid", "grid")))
    (media / "green.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64">'
                                     f'<rect width="64" height="64" fill="{GREEN}"/></svg>')
    s = RunningServer("--boards", str(boards), "--media", str(media), data_dir=tmp_path / "data").start()
    yield s
    s.stop()


def driver_for(engine, dark, dpr):
    if engine == "firefox":
        return firefox_page(420, 760, dpr=dpr, dark=dark)
    if engine == "webkit":
        env = {}
        if dark:
            env["GTK_THEME"] = "Adwaita:dark"
        if dpr == 2:
            env["GDK_SCALE"] = "2"
        return make_driver(420, 760, engine="webkit", env=env)
    d = make_driver(420, 760)
    if dark:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    if dpr == 2:
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 420, "height": 700, "deviceScaleFactor": 2, "mobile": False})
    return d


def rgb(color):
    """A theme or CSS color as (r, g, b): #rgb, #rrggbb or rgb()/rgba() over a white or black page."""
    c = color.strip()
    if c.startswith("#"):
        h = c[1:]
        if len(h) == 3:
            h = "".join(x * 2 for x in h)
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))
    nums = [float(x) for x in c[c.index("(") + 1:c.index(")")].replace("/", ",").split(",")]
    return tuple(int(round(x)) for x in nums[:3])


def close(px, want, tol=14):
    return all(abs(a - b) <= tol for a, b in zip(px[:3], want))


LAYOUTS_JS = """
const done = arguments[arguments.length - 1];
const st = window.__liftboard;
import(new URL('card.js', location.href).href).then((m) => {
  const ctx = document.createElement('canvas').getContext('2d');
  const measure = (font, text) => { ctx.font = font; return ctx.measureText(text).width; };
  const theme = st.theme(), out = {};
  for (const c of st.scene.cells.values()) {
    const f = c.frame.to, grid = st.scene.layout === 'grid';
    out[c.id] = {frame: f, grid, layout: m.isRich(c) ? m.cardLayout(c, f, {grid, measure, font: theme.font}) : null,
                 titleWidth: measure(m.FONTS.title(theme.font), c.label)};
  }
  done({cells: out, kind: st.scene.layout, theme, scroll: st.scene.scroll.to, sections: st.scene.sections,
        dpr: devicePixelRatio, inner: innerWidth, images: st.images(),
        canvas: (() => { const cv = document.getElementById('board').shadowRoot.querySelector('canvas');
                         return [cv.width, cv.height, cv.getBoundingClientRect().width, cv.getBoundingClientRect().height]; })()});
}, (e) => done({error: String(e)}));
"""


class Shot:
    """A screenshot read in CSS pixels of the page (whatever the device pixel ratio)."""

    def __init__(self, driver, info):
        from PIL import Image
        self.img = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        self.k = self.img.width / info["inner"]
        self.x0, self.y0 = canvas_origin(driver)
        self.scroll = info["scroll"]

    def at(self, x, y):
        """The pixel at content point (x, y) of the board."""
        return self.img.getpixel((int((self.x0 + x) * self.k), int((self.y0 + y - self.scroll) * self.k)))

    def count_near(self, box, color, tol=70):
        """How many device pixels of content box (x, y, w, h) are within `tol` of `color`."""
        x, y, w, h = box
        n = 0
        for j in range(int((self.y0 + y - self.scroll) * self.k), int((self.y0 + y + h - self.scroll) * self.k)):
            for i in range(int((self.x0 + x) * self.k), int((self.x0 + x + w) * self.k)):
                if close(self.img.getpixel((i, j)), color, tol):
                    n += 1
        return n


def check_board(driver, server, board_id, dark, dpr, shots):
    driver.get(server.http + "/" + debug_query(f"?board={board_id}"))
    wait_for(lambda: board_state(driver, "st && st.scene ? st.scene.cells.size : 0") == 3)
    # Images load once and settle (one ready, one failed) before the picture is read.
    wait_for(lambda: sorted(board_state(driver, "st && st.images ? Object.values(st.images()) : []")) == ["failed", "ready"])
    time.sleep(0.4)
    info = driver.execute_async_script(LAYOUTS_JS)
    assert "error" not in info, info
    # The server named the board's layout (the page asks it to): cards take their form from it.
    assert info["kind"] == ("grid" if board_id == "richgrid" else "list"), info["kind"]
    assert info["dpr"] == dpr
    assert info["theme"]["dark"] is dark
    # The canvas has a device pixel for each of the display's: crisp at any ratio.
    cw, ch, rw, rh = info["canvas"]
    assert (cw, ch) == (round(rw * dpr), round(rh * dpr))
    shot = Shot(driver, info)
    assert abs(shot.k - dpr) < 0.01
    shots.append(shot.img)
    t = info["theme"]
    bg, card, text, secondary = rgb(t["background"]), rgb(t["card"]), rgb(t["text"]), rgb(t["secondary"])
    # Dark is dark and light is light, measured, not only as the theme says.
    assert (sum(bg) / 3 < 40) if dark else (sum(bg) / 3 > 200), bg
    assert (sum(card) / 3 < 60) if dark else (sum(card) / 3 > 230), card

    full = info["cells"]["full"]
    L, f = full["layout"], full["frame"]
    c = L["card"]
    assert close(shot.at(c["x"] + 2, c["y"] + c["h"] / 2), rgb("#ff00ff")), "accent stripe"
    assert close(shot.at(c["x"] + c["w"] - 6, c["y"] + c["h"] - 6), card), "card surface"
    th = L["thumb"]
    assert close(shot.at(th["x"] + th["w"] / 2, th["y"] + th["h"] / 2), rgb(GREEN), 6), "thumbnail"
    if full["grid"]:
        assert th["w"] == c["w"] and th["y"] == c["y"], "a grid cell's image fills its top"
    else:
        assert th["x"] < L["title"]["x"] and th["w"] == th["h"], "a row's thumbnail leads it"
    b = L["badge"]
    assert close(shot.at(b["x"] + 4, b["y"] + b["h"] / 2), rgb(t["badge"])), "badge pill"
    assert [tag["text"] for tag in L["tags"]] == ["red", "blue"]
    for tag in L["tags"]:
        assert close(shot.at(tag["x"] + 3, tag["y"] + tag["h"] / 2), rgb(tag["color"])), f"tag {tag['text']}"
    # The title in the text color, the detail in the secondary one, where the layout put them.
    title = L["title"]
    assert shot.count_near((title["x"], title["y"] - 7, min(full["titleWidth"], 200), 14), text, 50) > 20 * dpr, "title"
    assert len(L["detail"]) >= 1
    d0 = L["detail"][0]
    assert shot.count_near((d0["x"], d0["y"] - 6, 120, 12), secondary, 40) > 10 * dpr, "detail"
    # Nothing of the detail past the card: the pixels below the card are the page's.
    assert close(shot.at(c["x"] + c["w"] / 2, c["y"] + c["h"] + 1.5), bg, 20), "detail clipped to its card"

    # The failed image: its placeholder, and the rest of the card and the board drawn.
    broken = info["cells"]["broken"]["layout"]
    bt = broken["thumb"]
    assert close(shot.at(bt["x"] + 8, bt["y"] + 4), rgb(t["placeholder"])), "placeholder"
    assert close(shot.at(broken["card"]["x"] + 2, broken["card"]["y"] + broken["card"]["h"] / 2), rgb("#00c8c8")), "stripe after a failed image"
    plain = info["cells"]["plain"]["frame"]
    assert close(shot.at(plain["x"] + plain["w"] / 2 + 20, plain["y"] + plain["h"] / 2 + 14), rgb("#f4b400")), "the plain bar after it"

    # The header: title and subtitle at the left, the item count at the right.
    sec = info["sections"][0]
    assert sec["subtitle"] == "this week" and sec["count"] == 3
    mid = sec["frame"]["y"] + sec["header"] / 2
    assert shot.count_near((16, mid - 7, 60, 14), rgb(t["header"]), 50) > 10 * dpr, "header title"
    assert shot.count_near((90, mid - 7, 80, 14), secondary, 50) > 10 * dpr, "header subtitle"
    width = info["canvas"][2]
    assert shot.count_near((width - 30, mid - 7, 16, 14), rgb(t["header"]), 50) > 3 * dpr, "header count"


@THREE
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("dpr", [1, 2], ids=["dpr1", "dpr2"])
def test_cards_render_every_part_in_a_list_and_a_grid(rich_server, engine, dark, dpr, tmp_path, request):
    driver = driver_for(engine, dark, dpr)
    shots = []
    try:
        check_board(driver, rich_server, "rich", dark, dpr, shots)
        check_board(driver, rich_server, "richgrid", dark, dpr, shots)
    finally:
        for k, img in enumerate(shots):
            img.save(tmp_path / f"{request.node.name}-{k}.png".replace("[", "-").replace("]", ""))
        driver.quit()


@BOTH
def test_the_hooks_exist_only_with_debug_1(live_server, browser):
    browser.get(live_server.http + "/")
    wait_for(lambda: browser.execute_script("return document.getElementById('board').dataset.connection") == "open")
    wait_for(lambda: browser.execute_script("return document.getElementById('board').state.scene.cells.size") > 0)
    assert browser.execute_script("return typeof window.__liftboard") == "undefined"
    assert browser.execute_script("return typeof document.getElementById('board').state.measureDraw") == "undefined"
    browser.get(live_server.http + "/?debug=1")
    wait_for(lambda: browser.execute_script("return !!window.__liftboard && window.__liftboard.scene.cells.size > 0"))
    assert browser.execute_script("return typeof window.__liftboard.measureDraw") == "function"
    assert browser.execute_script("return window.__liftboard.measureDraw(5).cells") > 0


MORE_JS = """
const done = arguments[arguments.length - 1];
import(new URL('card.js', location.href).href).then((m) => {
  const c = window.__liftboard.scene.cells.get(arguments[0]), f = c.frame.to;
  const grid = window.__liftboard.scene.layout === 'grid';
  done(m.moreButton({...f, y: f.y - window.__liftboard.scene.scroll.to}, grid && m.isRich(c), !!c.selected));
});
"""


def test_a_finger_taps_a_card_and_then_its_dots_button_opens_move_to_without_lifting_or_selecting(rich_server):
    driver = make_driver(420, 760)
    try:
        driver.get(rich_server.http + "/" + debug_query("?board=rich"))
        wait_for(lambda: board_state(driver, "st && st.scene ? st.scene.cells.size : 0") == 3)
        x0, y0 = canvas_origin(driver)
        f = board_state(driver, "st.scene.cells.get('broken').frame.to")
        touch_tap(driver, (x0 + f["x"] + 150, y0 + f["y"] + f["h"] / 2))
        time.sleep(0.3)
        b = driver.execute_async_script(MORE_JS.replace("arguments[0]", "'broken'"))
        assert b["x"] > f["x"] + f["w"] / 2, "a row's ⋯ sits at its trailing end"
        from PIL import Image
        img = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        ring = img.getpixel((int(x0 + b["x"]), int(y0 + b["y"] - b["r"] + 4)))
        assert sum(ring) / 3 < 160, ("the ⋯ button is drawn", ring)
        sent = board_state(driver, "st.sent")
        touch_tap(driver, (x0 + b["x"], y0 + b["y"]))
        items = wait_for(lambda: driver.execute_script(
            "const m = document.getElementById('board').shadowRoot.querySelector('[role=menu]');"
            "return m.hidden ? null : [...m.querySelectorAll('[role=menuitem]')].map(b => b.textContent)"))
        assert "Move to Done" in items
        # The tap on ⋯ went to no one: nothing sent, nothing lifted, nothing selected.
        assert board_state(driver, "st.sent") == sent
        assert board_state(driver, "st.scene.snapshots.size") == 0
        assert board_state(driver, "[...st.scene.cells.values()].some(c => c.selected)") is False
        button = driver.execute_script("return [...document.getElementById('board').shadowRoot"
                                       ".querySelectorAll('[role=menuitem]')].find(b => b.textContent === 'Move to Done')")
        button.click()
        wait_for(lambda: next(s["items"] for s in rich_server.board("rich")["order"] if s["section"] == "done") == ["broken"])
    finally:
        driver.quit()


def card_pixel(driver, item):
    """The pixel near the bottom-right corner of `item`'s card (its surface) and the theme."""
    from PIL import Image
    x0, y0 = canvas_origin(driver)
    f = board_state(driver, f"st.scene.cells.get('{item}').frame.to")
    scroll = board_state(driver, "st.scene.scroll.to")
    img = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    return img.getpixel((int(x0 + f["x"] + f["w"] - 6 - 6), int(y0 + f["y"] + f["h"] - 2 - 6 - scroll)))


def test_a_host_pages_custom_properties_restyle_the_cards_and_a_class_switch_is_seen_at_once(rich_server):
    driver = make_driver(420, 760)
    try:
        driver.get(rich_server.http + "/" + debug_query("?board=rich"))
        wait_for(lambda: board_state(driver, "st && st.scene ? st.scene.cells.size : 0") == 3)
        time.sleep(0.3)
        assert close(card_pixel(driver, "broken"), rgb("#ffffff"))
        # The host page's own theme switch: a class on <html> whose rule sets the properties (a
        # constructed sheet: the demo page's CSP refuses inline <style>).
        driver.execute_script("""
            const s = new CSSStyleSheet();
            s.replaceSync('html.sepia liftboard-board { --liftboard-card: #f1e3c6; --liftboard-radius: 2px; --liftboard-background: #402010; }');
            document.adoptedStyleSheets = [...document.adoptedStyleSheets, s];
            document.documentElement.classList.add('sepia');""")
        wait_for(lambda: board_state(driver, "st.theme().card") == "#f1e3c6")
        assert board_state(driver, "st.theme().radius") == 2
        time.sleep(0.3)
        assert close(card_pixel(driver, "broken"), rgb("#f1e3c6"))
        x0, y0 = canvas_origin(driver)
        from PIL import Image
        img = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        assert close(img.getpixel((int(x0 + 3), int(y0 + 16))), rgb("#402010")), "the board's background"
    finally:
        driver.quit()


def test_forced_colors_draw_with_the_systems_colors_and_reduced_motion_still_reaches_the_server(rich_server):
    driver = make_driver(420, 760)
    try:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "forced-colors", "value": "active"}, {"name": "prefers-reduced-motion", "value": "reduce"}]})
        driver.get(rich_server.http + "/" + debug_query("?board=rich"))
        wait_for(lambda: board_state(driver, "st && st.scene ? st.scene.cells.size : 0") == 3)
        theme = board_state(driver, "st.theme()")
        assert theme["forced"] is True
        system = driver.execute_script("const s = document.createElement('span'); document.body.append(s);"
                                       "s.style.color = 'Canvas'; const c = getComputedStyle(s).color; s.remove(); return c;")
        assert rgb(theme["card"]) == rgb(system)
        time.sleep(0.3)
        assert close(card_pixel(driver, "broken"), rgb(system))
        assert board_state(driver, "st.config.reducedMotion") is True
        # The system's setting changes: the board reconnects and the server applies the new one.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [
            {"name": "forced-colors", "value": "active"}, {"name": "prefers-reduced-motion", "value": "no-preference"}]})
        wait_for(lambda: board_state(driver, "st.config && st.config.reducedMotion") is False)
    finally:
        driver.quit()


def test_the_lifted_snapshot_draws_the_same_card(rich_server):
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from PIL import Image
    driver = make_driver(420, 760)
    try:
        driver.get(rich_server.http + "/" + debug_query("?board=rich"))
        wait_for(lambda: board_state(driver, "st && st.scene ? st.scene.cells.size : 0") == 3)
        wait_for(lambda: "ready" in board_state(driver, "Object.values(st.images())"))
        x0, y0 = canvas_origin(driver)
        f = board_state(driver, "st.scene.cells.get('full').frame.to")
        start = (x0 + f["x"] + 200, y0 + f["y"] + f["h"] / 2)
        ab = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
        ab.pointer_action.move_to_location(int(start[0]), int(start[1])).pointer_down().pause(0.8)
        for k in range(1, 6):
            ab.pointer_action.move_to_location(int(start[0]), int(start[1] + 40 * k)).pause(0.05)
        ab.perform()  # the finger stays down: the card is held
        wait_for(lambda: board_state(driver, "st.scene.snapshots.size") == 1)
        time.sleep(0.5)
        snap = board_state(driver, "[...st.scene.snapshots.values()].map(s => ({c: s.center.to, w: s.size.w, h: s.size.h}))[0]")
        img = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        cx, cy = x0 + snap["c"]["x"], y0 + snap["c"]["y"]
        box = [(i, j) for i in range(int(cx - snap["w"] / 2), int(cx + snap["w"] / 2))
               for j in range(int(cy - snap["h"] / 2), int(cy + snap["h"] / 2))]
        # Its thumbnail (at the lift's alpha over what lies below) and its badge; its stripe, at the
        # leading edge of a row as wide as the view, is scaled and turned out of the view.
        seen = lambda color, tol: sum(1 for p in box if close(img.getpixel(p), color, tol))
        assert seen(rgb(GREEN), 45) > 400, "the thumbnail"
        assert seen(rgb("#1a73e8"), 60) > 40, "the badge"
        # The cell it left is hidden: no green where the card was.
        th = {"x": f["x"] + 6 + 14, "y": f["y"] + 2 + 14}
        assert not close(img.getpixel((int(x0 + th["x"] + 32), int(y0 + th["y"] + 32))), rgb(GREEN), 30)
    finally:
        driver.quit()


def test_in_a_scrolled_column_a_fingers_dots_button_opens_move_to_where_it_is_drawn(live_server):
    from test_kanban import open_kanban, scrolls, view_center
    driver = make_driver(1000, 760)
    try:
        open_kanban(driver, live_server)
        driver.execute_script("""
            const c = document.getElementById('board').shadowRoot.querySelector('canvas'), r = c.getBoundingClientRect();
            c.dispatchEvent(new WheelEvent('wheel', {deltaY: 200, clientX: r.left + 40, clientY: r.top + 200, bubbles: true, cancelable: true}));""")
        wait_for(lambda: scrolls(driver)[1]["backlog"] == 200)
        # A card the column's scroll brought into view.
        item = board_state(driver, """[...st.scene.cells.values()].filter(c => c.section === 'backlog' && c.movable)
            .find(c => c.frame.to.y - 200 > 80 && c.frame.to.y + c.frame.to.h - 200 < 500).id""")
        x, y = view_center(driver, item)
        touch_tap(driver, (x - 60, y))
        time.sleep(0.3)
        b = driver.execute_async_script("""
            const done = arguments[arguments.length - 1], id = arguments[0];
            Promise.all([import(new URL('card.js', location.href).href), import(new URL('scene.js', location.href).href)]).then(([m, sc]) => {
              const s = window.__liftboard.scene, c = s.cells.get(id), f = c.frame.to;
              done(m.moreButton({...f, ...sc.contentToView(s, c.section, f.x, f.y, 0, true)}, sc.inGrid(s, c) && m.isRich(c), !!c.selected));
            });""", item)
        x0, y0 = canvas_origin(driver)
        sent = board_state(driver, "st.sent")
        touch_tap(driver, (x0 + b["x"], y0 + b["y"]))
        wait_for(lambda: driver.execute_script(
            "const m = document.getElementById('board').shadowRoot.querySelector('[role=menu]'); return !m.hidden"))
        label = driver.execute_script("return document.getElementById('board').shadowRoot.querySelector('[role=menu]').getAttribute('aria-label')")
        assert board_state(driver, f"st.scene.cells.get('{item}').label") in label
        assert board_state(driver, "st.sent") == sent
    finally:
        driver.quit()
