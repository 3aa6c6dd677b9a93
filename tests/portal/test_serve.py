"""The web server's workers share the connections: each listens on a socket of its own, and
the kernel spreads new connections over them, instead of the first awake taking them all."""

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def _pids(port: int, connections: int) -> list[int]:
    """Open ``connections`` connections at once, one request on each: who answered each."""

    async def one() -> int:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET / HTTP/1.1\r\nHost: portal\r\nConnection: close\r\n\r\n")
        await writer.drain()
        answer = await reader.read()
        writer.close()
        return int(answer.split(b"\r\n\r\n", 1)[1])

    return await asyncio.gather(*[one() for _ in range(connections)])


@pytest.fixture
def served():
    processes = []

    def serve(workers: int, app: str = "tests.portal.pid_app:application", extra: tuple = ()) -> int:
        port = _free_port()
        command = [sys.executable, "-m", "portal.serve", app, "--host", "127.0.0.1"]
        command += ["--port", str(port), "--workers", str(workers), "--log-level", "warning", *extra]
        process = subprocess.Popen(command, cwd=ROOT, start_new_session=True)
        processes.append(process)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                pids = asyncio.run(_pids(port, 1))
            except OSError:
                time.sleep(0.1)
                continue
            if workers == 1 or len(set(asyncio.run(_pids(port, 32)))) == workers:
                return port
            time.sleep(0.1)
        raise AssertionError(f"the server on port {port} did not come up with {workers} workers ({pids})")

    yield serve
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def test_connections_opened_together_are_spread_over_the_workers(served):
    port = served(2)
    for _ in range(5):
        counts = Counter(asyncio.run(_pids(port, 32)))
        # By the kernel's hash, 32 connections all on one of two workers: 1 chance in 2**31.
        assert len(counts) == 2, counts


def test_a_worker_that_dies_is_replaced_and_the_new_one_gets_connections(served):
    port = served(2)
    first = set(asyncio.run(_pids(port, 32)))
    os.kill(min(first), signal.SIGKILL)
    deadline = time.monotonic() + 30
    now: set[int] = set()
    while time.monotonic() < deadline:
        try:
            now = set(asyncio.run(_pids(port, 32)))
        except OSError:  # a connection queued at the dead worker's socket when it died is reset
            continue
        if len(now) == 2 and min(first) not in now:
            break
        time.sleep(0.2)
    assert len(now) == 2 and min(first) not in now, (first, now)


def test_one_worker_is_plain_uvicorn(served):
    port = served(1)
    assert len(set(asyncio.run(_pids(port, 16)))) == 1


def _first_frame(port: int) -> tuple[str, bytes]:
    """Open a WebSocket as a browser does (asking for permessage-deflate) and read the first
    frame as it comes over the wire: (the extensions agreed, the frame's payload)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(
            b"GET / HTTP/1.1\r\nHost: portal\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
        )
        data = b""
        while b"\r\n\r\n" not in data:
            data += raw.recv(65536)
        head, data = data.split(b"\r\n\r\n", 1)
        agreed = next(
            (
                line.split(b":", 1)[1].strip().decode()
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"sec-websocket-extensions")
            ),
            "",
        )
        while len(data) < 4:
            data += raw.recv(65536)
        length, start = data[1] & 0x7F, 2
        if length == 126:
            length, start = int.from_bytes(data[2:4], "big"), 4
        while len(data) < start + length:
            data += raw.recv(65536)
        return agreed, data[start : start + length]


def test_the_sockets_compress_the_way_browsers_ask_and_cheaply(served):
    """Browsers ask for permessage-deflate: the server agrees and compresses at zlib's level 1
    (more bytes than uvicorn's own protocol at zlib's default level, for half the time), and the
    frame inflates to what the app sent."""
    import zlib

    from tests.portal.pid_app import words

    ours = served(1, app="tests.portal.pid_app:update")
    theirs = served(1, app="tests.portal.pid_app:update", extra=["--ws", "websockets-sansio"])
    sizes = {}
    for name, port in (("ours", ours), ("theirs", theirs)):
        agreed, payload = _first_frame(port)
        assert agreed.startswith("permessage-deflate")
        assert zlib.decompressobj(-zlib.MAX_WBITS).decompress(payload + b"\x00\x00\xff\xff").decode() == words()
        sizes[name] = len(payload)
    assert sizes["ours"] > sizes["theirs"], sizes


def test_a_message_sent_to_many_sockets_is_compressed_once_and_each_reads_it_alone(served):
    """Each message is compressed on its own (the server says so: server_no_context_takeover),
    so the same update is the same bytes on every socket: compressed once per process, not
    once per spectator, and each socket inflates it with nothing before it."""
    import zlib

    from tests.portal.pid_app import words

    port = served(1, app="tests.portal.pid_app:update")
    frames = [_first_frame(port) for _ in range(3)]
    for agreed, payload in frames:
        assert "server_no_context_takeover" in agreed
        assert zlib.decompressobj(-zlib.MAX_WBITS).decompress(payload + b"\x00\x00\xff\xff").decode() == words()
    assert len({payload for _, payload in frames}) == 1


def test_the_same_message_is_compressed_once_for_every_socket_of_a_process():
    from websockets.frames import TEXT, Frame

    from portal.serve import SharedDeflate

    def socket_extension():
        return SharedDeflate(False, True, 12, 12, {"memLevel": 5, "level": 1})

    update = ("{'version': 12, 'seat': 'blue'} " * 40).encode()
    first = socket_extension().encode(Frame(TEXT, update))
    second = socket_extension().encode(Frame(TEXT, bytes(update)))
    assert first.rsv1 and second.rsv1 and first.fin
    assert second.data is first.data  # the bytes compressed for the first socket, not again
    other = socket_extension().encode(Frame(TEXT, update + b" "))
    assert other.data != first.data
