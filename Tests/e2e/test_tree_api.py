"""Trees over HTTP (issue 43): PATCH /api/boards/outline/items/{id} with `parent`, `after` and
`section` moves an item with its subtree as a drop would (one `move` commit); the tree reads
back from GET /api/boards/outline (each item's parent in `order`). Refusals: a move mixed with
an edit, a board that is no tree, an unknown parent, a place the tree refuses."""
from test_edits_api import call


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
