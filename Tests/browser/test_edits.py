"""Boards that change while people drag (issue 12), in real browser pages against the real
`liftboard serve`: a card added through the API (Chromium), and Ctrl-Z (Chromium and WebKitGTK,
the other page Chromium in both)."""
import json
import threading
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import ADMIN, make_driver
from pages import cell_center, long_press_drag, open_board, scene_cells, wait_for

@pytest.fixture
def server(admin_server):
    return admin_server


def todo(server):
    return server.board()["order"][0]["items"]


def add_card(server, version):
    req = urllib.request.Request(server.http + "/api/boards/demo/items", method="POST",
                                 data=json.dumps({"id": "card", "label": "Added while dragging", "section": "todo"}).encode(),
                                 headers={"Authorization": f"Bearer {ADMIN}", "If-Match": str(version)})
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.status


def test_a_card_added_through_the_api_appears_on_two_pages_while_one_drags_and_the_drag_commits_where_dropped(server, browser):
    other = make_driver()
    try:
        open_board(browser, server)
        open_board(other, server)
        statuses = []
        # The card is added 1.2 s into the drag: after the lift (0.8 s), while the finger moves.
        timer = threading.Timer(1.2, lambda: statuses.append(add_card(server, 0)))
        timer.start()
        start = cell_center(browser, "milk")
        long_press_drag(browser, start, (start[0], cell_center(browser, "mum")[1] + 10), steps=30, pause=0.05)
        timer.join()
        assert statuses == [201]
        for page in (browser, other):
            wait_for(lambda: "card" in (scene_cells(page) or {}))
        wait_for(lambda: server.board()["version"] == 2)
        assert todo(server)[:2] == ["mum", "milk"] and todo(server)[-1] == "card"
        history = json.loads(server.get("/api/boards/demo/history")[2])["versions"]
        assert history[0]["change"]["edit"] == "addItem" and history[1]["change"]["id"] == "milk"
        # The other page shows the card where the board has it.
        wait_for(lambda: scene_cells(other)["card"]["index"] == len(todo(server)) - 1)
    finally:
        other.quit()


@pytest.mark.engines("chromium", "webkit")
def test_ctrl_z_undoes_the_pages_last_drop_and_the_other_page_sees_it(server, browser):
    other = make_driver()
    try:
        open_board(browser, server)
        open_board(other, server)
        top = scene_cells(other)["milk"]["frame"]["y"]
        start = cell_center(browser, "milk")
        long_press_drag(browser, start, (start[0], cell_center(browser, "mum")[1] + 10))
        wait_for(lambda: todo(server)[:2] == ["mum", "milk"])
        wait_for(lambda: scene_cells(other)["milk"]["frame"]["y"] > top)
        ActionChains(browser).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
        wait_for(lambda: todo(server)[:2] == ["milk", "mum"])
        assert server.board()["version"] == 2
        wait_for(lambda: scene_cells(other)["milk"]["frame"]["y"] == top)
        wait_for(lambda: scene_cells(browser)["milk"]["index"] == 0)
    finally:
        other.quit()
