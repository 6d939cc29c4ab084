"""The change feed (issue 12): GET /api/boards/{id}/events as Server-Sent Events on the real
binary, read by a plain HTTP client the way an application would."""
import asyncio
import http.client
import json
import time

import pytest
import websockets

from conftest import ADMIN
from liftboard_server import HELLO, long_press_drag, recv_until

@pytest.fixture
def server(admin_server):
    return admin_server


class Feed:
    """An open event stream: its events as (id, event, data) and its comments."""

    def __init__(self, server, last_id=None, board="demo"):
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
        headers = {"Accept": "text/event-stream"}
        if last_id is not None:
            headers["Last-Event-ID"] = str(last_id)
        self.conn.request("GET", f"/api/boards/{board}/events", headers=headers)
        self.response = self.conn.getresponse()
        self.comments = []

    def next_event(self):
        fields = {}
        while True:
            line = self.response.fp.readline()
            assert line, "the stream ended"
            line = line.decode().rstrip("\n")
            if line == "":
                if fields:
                    return int(fields["id"]), fields["event"], json.loads(fields["data"])
                continue
            if line.startswith(":"):
                self.comments.append(line)
                continue
            name, _, value = line.partition(": ")
            fields[name] = value

    def close(self):
        self.conn.close()


def post(server, path, body, version, method="POST"):
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    c.request(method, path, body=json.dumps(body) if body is not None else None,
              headers={"Authorization": f"Bearer {ADMIN}", "If-Match": str(version)})
    r = c.getresponse()
    out = r.status, json.loads(r.read())
    c.close()
    return out


async def drop_milk_below_mum(server):
    async with websockets.connect(server.ws, subprotocols=["liftboard.v1"], open_timeout=5) as ws:
        await ws.send(json.dumps(HELLO))
        await recv_until(ws, lambda m: m["t"] == "layout")
        await long_press_drag(ws, 50, 60, 160)
        c = (await recv_until(ws, lambda m: m["t"] == "commit"))[-1]
        assert c["t"] == "commit"
        return c


def test_the_feed_carries_drops_and_edits_and_resumes_after_a_disconnect_without_a_gap(server):
    feed = Feed(server)
    assert feed.response.status == 200 and feed.response.getheader("content-type") == "text/event-stream"
    drop = asyncio.run(asyncio.wait_for(drop_milk_below_mum(server), 30))
    assert post(server, "/api/boards/demo/items", {"id": "o17", "label": "Order 17", "section": "doing"}, 1)[0] == 201
    first = [feed.next_event(), feed.next_event()]
    assert [(i, e) for i, e, _ in first] == [(1, "commit"), (2, "edit")]
    assert first[0][2]["change"] == drop["change"] and first[0][2]["by"] == drop["by"]
    assert first[1][2]["change"]["item"]["id"] == "o17" and first[1][2]["by"] == "api"
    feed.close()

    # While nobody listens: three more versions.
    assert post(server, "/api/boards/demo/items/o17", {"label": "Order 17, no onions"}, 2, "PATCH")[0] == 200
    assert post(server, "/api/boards/demo/sections", {"id": "later"}, 3)[0] == 201
    assert post(server, "/api/boards/demo/items/o17", None, 4, "DELETE")[0] == 200

    resumed = Feed(server, last_id=2)
    missed = [resumed.next_event() for _ in range(3)]
    assert [i for i, _, _ in missed] == [3, 4, 5]
    assert [d["change"]["edit"] for _, _, d in missed] == ["updateItem", "addSection", "removeItem"]
    # And live ones follow, once each.
    assert post(server, "/api/boards/demo/sections/later", {"title": "Some day"}, 5, "PATCH")[0] == 200
    assert resumed.next_event()[0] == 6
    resumed.close()


def test_an_idle_feed_gets_a_heartbeat_comment_and_stays_open(server):
    feed = Feed(server)
    start = time.monotonic()
    assert post(server, "/api/boards/demo/items", {"id": "late"}, 0)[0] == 201
    assert feed.next_event()[0] == 1
    # Nothing happens for a while: a comment comes within 15 s (plus slack) and the stream
    # outlives the server's 10 s HTTP timeout.
    while not any("heartbeat" in c for c in feed.comments):
        line = feed.response.fp.readline().decode()
        assert line, "the stream ended"
        if line.startswith(":"):
            feed.comments.append(line)
    assert time.monotonic() - start < 17
    assert post(server, "/api/boards/demo/items/late", None, 1, "DELETE")[0] == 200
    assert feed.next_event()[0] == 2
    feed.close()


def test_a_bad_last_event_id_or_an_unknown_board_is_refused(server):
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    c.request("GET", "/api/boards/demo/events", headers={"Last-Event-ID": "soon"})
    assert c.getresponse().status == 400
    c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    c.request("GET", "/api/boards/nope/events")
    assert c.getresponse().status == 404
