"""Trees over HTTP (issue 43): POST /api/boards/outline/items with `parent` and `after` adds an
item in the tree (a session on the board sees its row there); PATCH /api/boards/outline/items/{id} with `parent`, `after` and
`section` moves an item with its subtree as a drop would (one `move` commit); the tree reads
back from GET /api/boards/outline (each item's parent in `order`). Refusals: a move mixed with
an edit, a board that is no tree, an unknown parent, a place the tree refuses."""
import asyncio
import json
import pathlib

import websockets

from liftboard_server import HELLO, recv_until
from test_edits_api import call, run


def parents(server, section="home"):
    order = next(s for s in server.board("outline")["order"] if s["section"] == section)
    return order["items"], dict(zip(order["items"], order["parents"]))


def test_a_patch_moves_an_item_with_its_subtree_under_a_parent_after_a_sibling(admin_server):
    server = admin_server
    # Bills (water, phone) under groceries, right after milk.
    status, _, body = call(server, "PATCH", "/api/boards/outline/items/bills", {"parent": "groceries", "after": "milk"}, version=0)
    assert status == 200, body
    items, parent = parents(server)
    assert items[:6] == ["groceries", "milk", "bills", "water", "phone", "eggs"], items
    assert (parent["bills"], parent["water"], parent["phone"]) == ("groceries", "bills", "bills")
    # No `after`: last among the parent's children; `parent: null`: the top level; `section`.
    status, _, body = call(server, "PATCH", "/api/boards/outline/items/bike", {"parent": "garden"}, version=1)
    assert status == 200, body
    assert parents(server)[1]["bike"] == "garden" and parents(server)[0].index("bike") == parents(server)[0].index("hedge") + 1
    status, _, body = call(server, "PATCH", "/api/boards/outline/items/water", {"parent": None, "after": None, "section": "work"}, version=2)
    assert status == 200, body
    items, parent = parents(server, "work")
    assert items[0] == "water" and parent["water"] is None
    assert server.board("outline")["version"] == 3
    history = call(server, "GET", "/api/boards/outline/history")[2]
    assert history["versions"][-1]["change"] == {"move": "water", "section": "work", "parent": None, "after": None, "index": 0}


def test_refusals_name_what_is_wrong_and_commit_nothing(admin_server):
    server = admin_server
    cases = [
        ({"parent": "groceries", "label": "x"}, 400, "bad_request"),
        ({"parent": "nope"}, 404, "item_not_found"),
        # An empty id is no id (as a POST's): a 400 naming the member.
        ({"parent": ""}, 400, "bad_request"),
        ({"after": ""}, 400, "bad_request"),
        ({"parent": "groceries", "after": "bills"}, 404, "item_not_found"),
        ({"section": "nowhere"}, 404, "section_not_found"),
        # Under its own child, and under the leaf eggs.
        ({"parent": "milk"}, 409, "rule_refused"),
    ]
    for body, status, code in cases:
        got = call(server, "PATCH", "/api/boards/outline/items/groceries", body, version=0)
        assert (got[0], got[2]["error"]["code"]) == (status, code), (body, got)
    got = call(server, "PATCH", "/api/boards/outline/items/bike", {"parent": "eggs"}, version=0)
    assert (got[0], got[2]["error"]["code"]) == (409, "rule_refused"), got
    got = call(server, "PATCH", "/api/boards/demo/items/milk", {"parent": "mum"}, version=0)
    assert (got[0], got[2]["error"]["code"]) == (400, "bad_request"), got
    assert server.board("outline")["version"] == 0


def test_a_post_adds_an_item_under_a_parent_after_a_sibling_and_a_session_sees_its_row_there(admin_server):
    server = admin_server

    async def go():
        ws = await websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5)
        await ws.send(json.dumps({**HELLO, "board": "outline"}))
        await recv_until(ws, lambda m: m["t"] == "layout")
        status, _, body = await asyncio.to_thread(
            call, server, "POST", "/api/boards/outline/items", {"id": "bread", "label": "Bread", "parent": "groceries", "after": "milk"}, 0)
        assert (status, body) == (201, {"version": 1, "changed": True}), body
        got = await recv_until(ws, lambda m: m["t"] == "commit")
        if not any(m["t"] == "frame" and any(c.get("id") == "bread" for c in m.get("cells", [])) for m in got):
            got += await recv_until(ws, lambda m: m["t"] == "frame" and any(c.get("id") == "bread" for c in m.get("cells", [])))
        commit = next(m for m in got if m["t"] == "commit")
        assert commit["change"]["parent"] == "groceries" and commit["change"]["after"] == "milk", commit
        cell = next(c for m in got if m["t"] == "frame" for c in m.get("cells", []) if c.get("id") == "bread")
        # The row right after milk, one level in, under groceries.
        assert (cell["section"], cell["index"], cell["depth"], cell["parent"]) == ("home", 2, 1, "groceries"), cell
        await ws.close()

    asyncio.run(asyncio.wait_for(go(), 30))
    items, parent = parents(admin_server)
    assert items[:4] == ["groceries", "milk", "bread", "eggs"] and parent["bread"] == "groceries", items


def test_a_posts_parent_and_after_default_to_the_top_level_and_the_last_sibling(admin_server):
    server = admin_server
    steps = [
        ({"id": "a1"}, None, "bike"),                                   # no parent: last at the top level
        ({"id": "a2", "parent": "fruit"}, "fruit", "pears"),            # no after: last among fruit's children
        ({"id": "a3", "parent": "fruit", "after": None}, "fruit", None),  # after null: first
        ({"id": "a4", "parent": None, "after": "groceries"}, None, "groceries"),
    ]
    for k, (body, want_parent, want_after) in enumerate(steps):
        status, _, got = call(server, "POST", "/api/boards/outline/items", {**body, "section": "home"}, version=k)
        assert status == 201, (body, got)
        items, parent = parents(server)
        siblings = [x for x in items if parent[x] == want_parent]
        k = siblings.index(body["id"])
        assert parent[body["id"]] == want_parent and (siblings[k - 1] if k else None) == want_after, (body, items)


def test_a_post_that_the_tree_refuses_gets_a_clear_error_and_commits_nothing(admin_server):
    server = admin_server
    # apples is at depth 2 in home (maxDepth 3): a child of it fits, a grandchild does not.
    status, _, got = call(server, "POST", "/api/boards/outline/items", {"id": "deep", "section": "home", "parent": "apples"}, version=0)
    assert status == 201, got
    cases = [
        ({"id": "x", "section": "home", "parent": "nope"}, 404, "item_not_found", "no item nope in section home"),
        ({"id": "x", "section": "home", "parent": "bills"}, 404, "item_not_found", None),  # bills is in home: after below
        ({"id": "x", "section": "home", "parent": "eggs"}, 409, "rule_refused", "eggs is a leaf"),
        ({"id": "x", "section": "home", "parent": "deep"}, 409, "rule_refused", "past 3"),
        ({"id": "x", "section": "home", "parent": "groceries", "after": "bills"}, 404, "item_not_found", "no item bills under groceries"),
        ({"id": "x", "section": "work", "parent": "groceries"}, 404, "item_not_found", "in section work"),
        ({"id": "x", "section": "home", "parent": 7}, 400, "bad_request", "body.parent"),
        ({"id": "milk", "section": "home", "parent": "groceries"}, 409, "item_exists", None),
    ]
    for body, status, code, words in cases:
        if body.get("parent") == "bills":
            body = {**body, "after": "groceries"}  # groceries is no child of bills
        got = call(server, "POST", "/api/boards/outline/items", body, version=1)
        assert (got[0], got[2]["error"]["code"]) == (status, code), (body, got)
        assert words is None or words in got[2]["error"]["message"], (body, got)
    got = call(server, "POST", "/api/boards/demo/items", {"id": "x", "parent": "milk"}, version=0)
    assert (got[0], got[2]["error"]["code"]) == (400, "bad_request"), got
    assert server.board("outline")["version"] == 1


def test_a_put_of_the_tree_board_with_other_nesting_replaces_it_and_a_session_follows(admin_server):
    """A PUT of the outline's own file with fruit taken out to the top level, milk gone, bread new
    under groceries, and bills' children moved under garden (bills gone): it was refused
    (`cannot_replace`, every change was a list's); now each is a tree change and a session on the
    board ends on the same forest."""
    server = admin_server
    with open(pathlib.Path(__file__).resolve().parents[2] / "Examples" / "boards" / "outline.json") as f:
        board = json.load(f)
    home = board["sections"][0]["items"]
    groceries, garden, bills = (next(i for i in home if i["id"] == x) for x in ("groceries", "garden", "bills"))
    fruit = next(i for i in groceries["children"] if i["id"] == "fruit")
    groceries["children"] = [{"id": "bread", "label": "Bread"}] + [i for i in groceries["children"] if i["id"] not in ("milk", "fruit")]
    garden["children"] += bills["children"]
    home[:] = [groceries, fruit] + [i for i in home if i["id"] not in ("groceries", "bills")]

    async def go():
        ws = await websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5)
        await ws.send(json.dumps({**HELLO, "board": "outline"}))
        await recv_until(ws, lambda m: m["t"] == "layout")
        status, _, body = await asyncio.to_thread(call, server, "PUT", "/api/boards/outline", board, 0)
        assert status == 200, body
        got = await recv_until(ws, lambda m: m["t"] == "commit" and m["version"] == body["version"])
        await ws.close()
        return next(m for m in reversed(got) if m["t"] == "commit")

    last = run(go())
    items, parent = parents(server)
    assert items == ["groceries", "bread", "eggs", "fruit", "apples", "pears", "garden", "seeds", "shed", "hedge",
                     "water", "phone", "bike"], items
    assert (parent["bread"], parent["fruit"], parent["water"], parent["phone"]) == ("groceries", None, "garden", "garden")
    home_order = next(s for s in last["order"] if s["section"] == "home")
    assert home_order["items"] == items and [home_order["parents"][items.index(x)] for x in ("water", "fruit")] == ["garden", None]
