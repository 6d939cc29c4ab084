"""A TCP proxy that delays every chunk of bytes by D ms in each direction, in order: the page
and its WebSocket through it see a network with a round trip of 2 D (benchmarks and browser
tests of prediction). Loopback only.

    python3 Tests/tools/delay_proxy.py --target 127.0.0.1:8080 --delay-ms 100 [--port 0]

prints `listening PORT` on stdout once it accepts connections. Also importable: `DelayProxy`.

With `--burst-ms B` the bytes towards the server are also held until the next multiple of B ms:
the server reads each connection in bursts B apart, as a busy server would, late by a known
amount whatever the machine's speed (Tests/e2e/test_saturation.py).
"""
import math
import argparse
import asyncio
import sys
import threading
import time


def _due(now, delay_s, burst_s):
    """When a chunk read at `now` is written: delay_s later, then at the next multiple of burst_s."""
    due = now + delay_s
    return math.ceil(due / burst_s) * burst_s if burst_s > 0 else due


async def _pump(reader, writer, delay_s, burst_s=0.0):
    """Copies reader to writer, each chunk delay_s after it was read (then held to the next
    multiple of burst_s, if any), order kept."""
    queue = asyncio.Queue()

    async def write_later():
        while True:
            due, data = await queue.get()
            if data is None:
                break
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            writer.write(data)
            await writer.drain()
        try:
            writer.write_eof()
        except (OSError, RuntimeError):
            pass

    writing = asyncio.ensure_future(write_later())
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            queue.put_nowait((_due(time.monotonic(), delay_s, burst_s), data))
    except (ConnectionError, OSError):
        pass
    queue.put_nowait((0, None))
    try:
        await writing
    except (ConnectionError, OSError):
        pass


async def _serve(target_host, target_port, delay_ms, port, ready, burst_ms=0):
    async def handle(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection(target_host, target_port)
        except OSError:
            client_writer.close()
            return
        d = delay_ms / 1000
        await asyncio.gather(_pump(client_reader, server_writer, d, burst_ms / 1000), _pump(server_reader, client_writer, d))
        for w in (client_writer, server_writer):
            w.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    ready(server.sockets[0].getsockname()[1])
    async with server:
        await server.serve_forever()


class DelayProxy:
    """Runs the proxy on a thread: `DelayProxy("127.0.0.1", 8080, 100).start().port`."""

    def __init__(self, target_host, target_port, delay_ms, burst_ms=0):
        self.target = (target_host, target_port)
        self.delay_ms = delay_ms
        self.burst_ms = burst_ms
        self.port = None
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()

    def start(self):
        def ready(port):
            self.port = port
            self._ready.set()

        def run():
            asyncio.set_event_loop(self._loop)
            # Connections cut by `stop` are not errors worth a traceback.
            self._loop.set_exception_handler(lambda loop, context: None)
            try:
                self._loop.run_until_complete(_serve(*self.target, self.delay_ms, 0, ready, self.burst_ms))
            except asyncio.CancelledError:
                pass

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        if not self._ready.wait(5):
            raise RuntimeError("the delay proxy did not start")
        return self

    def stop(self):
        def cancel():
            for task in asyncio.all_tasks(self._loop):
                task.cancel()
        self._loop.call_soon_threadsafe(cancel)
        self._thread.join(5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", required=True, help="HOST:PORT of the server")
    ap.add_argument("--delay-ms", type=float, required=True, help="delay each way")
    ap.add_argument("--burst-ms", type=float, default=0, help="towards the server, hold bytes to the next multiple of this")
    ap.add_argument("--port", type=int, default=0)
    a = ap.parse_args()
    host, port = a.target.rsplit(":", 1)

    def ready(p):
        print(f"listening {p}", flush=True)

    try:
        asyncio.run(_serve(host, int(port), a.delay_ms, a.port, ready, a.burst_ms))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
