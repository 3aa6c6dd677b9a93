"""The web server: uvicorn, whose worker processes each listen on a socket of their own.

    python -m portal.serve portal.asgi:application --host 127.0.0.1 --port 8000 --workers 2

Takes every option of the ``uvicorn`` command. Its sockets compress at zlib's level 1
(``WebSocketProtocol``, unless ``--ws`` names another protocol). With one worker it is plain
uvicorn otherwise. With more,
uvicorn's own supervisor shares one listening socket among its workers, and whichever worker
wakes first accepts every connection waiting: 16 connections opened together landed 14 to 16
on one worker of two, and a proxy's or a client's keep-alive connections then stay there, so
one worker serves everything while the other idles (the pages' rate at 2 workers was either
about 50% or about 90% of what it could be, by where the connections fell).

Here each worker binds its own socket to the same address with ``SO_REUSEPORT``, and the
kernel spreads new connections over the workers by a hash of their addresses: as evenly as
coins, whichever worker is awake. The price: a connection waiting in a worker's queue when
that worker dies is reset, where a shared queue would have handed it to another (a client
retries; a worker dies only on a crash or a restart). Everything else (restarts of a dead worker, signals, the
health checks) is uvicorn's supervisor as it is.
"""

from __future__ import annotations

import importlib
import socket
import sys
from collections import OrderedDict

import uvicorn.supervisors.multiprocess as multiprocess
from uvicorn import Config, Server
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import BINARY, TEXT, Frame
from websockets.server import ServerProtocol

# The module: ``uvicorn.main`` as an attribute is the command of the same name.
uvicorn_main = importlib.import_module("uvicorn.main")


def reuse_port_socket(config: Config) -> socket.socket:
    """A socket bound to ``config``'s address that other processes may bind too (Linux's
    ``SO_REUSEPORT``: the kernel shares the incoming connections among them)."""
    family = socket.AF_INET6 if config.host and ":" in config.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((config.host, config.port))
    sock.set_inheritable(True)
    return sock


class OwnSocketServer(Server):
    """A worker's server, listening on a socket of its own instead of the one it is handed."""

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        for shared in sockets or ():
            shared.close()
        super().run(sockets=[reuse_port_socket(self.config)])


class OwnSocketProcess(multiprocess.Process):
    """uvicorn's worker process, running an ``OwnSocketServer``."""

    @property
    def server(self) -> Server:
        if self._server is None:
            self._server = OwnSocketServer(config=self.config)
        return self._server


class OwnSocketSupervisor(multiprocess.Multiprocess):
    """uvicorn's supervisor, starting workers that listen on sockets of their own. The socket
    uvicorn bound for them to share is closed first: the workers' sockets could not join it."""

    def __init__(self, config: Config, sockets: list[socket.socket]) -> None:
        for shared in sockets:
            shared.close()
        super().__init__(config, sockets=[])


# zlib's level for the sockets' compression (permessage-deflate, which browsers ask for):
# level 1 compresses a 4 KB match update in about 20 us instead of 43 at zlib's default (6),
# for about 12% more bytes.
COMPRESSION_LEVEL = 1
# How many compressed messages a process keeps for its other sockets (each at most
# ``SHARED_MAX_BYTES`` long): a match's update goes to every socket of an audience at once.
SHARED_MESSAGES = 256
SHARED_MAX_BYTES = 64 * 1024
_compressed: OrderedDict[tuple[int, bytes], bytes] = OrderedDict()


class SharedDeflate(PerMessageDeflate):
    """permessage-deflate that compresses a message once for every socket that sends it.

    The server compresses each message on its own (``server_no_context_takeover``, which a
    server may always ask for), so the same message compresses to the same bytes on every
    socket, and a match's update, the same text for each of an audience's sockets, is
    compressed once per process instead of once per socket (250 spectators: 250 times). The
    price is a few more bytes: a message cannot refer to the ones before it."""

    def encode(self, frame: Frame) -> Frame:
        if not (frame.fin and frame.opcode in (TEXT, BINARY) and self.local_no_context_takeover):
            return super().encode(frame)
        if len(frame.data) > SHARED_MAX_BYTES:
            return super().encode(frame)
        key = (self.local_max_window_bits, bytes(frame.data))
        data = _compressed.get(key)
        if data is None:
            data = bytes(super().encode(frame).data)
            _compressed[key] = data
            if len(_compressed) > SHARED_MESSAGES:
                _compressed.popitem(last=False)
        else:
            _compressed.move_to_end(key)
        return Frame(frame.opcode, data, True, True, frame.rsv2, frame.rsv3)


class SharedDeflateFactory(ServerPerMessageDeflateFactory):
    """Negotiates permessage-deflate as websockets does, with ``SharedDeflate`` on the socket."""

    def process_request_params(self, params, accepted_extensions):
        response, made = super().process_request_params(params, accepted_extensions)
        shared = SharedDeflate(
            made.remote_no_context_takeover,
            made.local_no_context_takeover,
            made.remote_max_window_bits,
            made.local_max_window_bits,
            made.compress_settings,
        )
        return response, shared


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets, sans I/O: uvicorn's default) with the same
    compression settings, at zlib's ``COMPRESSION_LEVEL``, each message compressed on its own
    and once per process (``SharedDeflate``)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            deflate = SharedDeflateFactory(
                server_no_context_takeover=True,
                server_max_window_bits=12,
                client_max_window_bits=12,
                compress_settings={"memLevel": 5, "level": COMPRESSION_LEVEL},
            )
            self.conn = ServerProtocol(extensions=[deflate], max_size=self.config.ws_max_size, logger=self.logger)


def _with_defaults(argv: list[str]) -> list[str]:
    """``argv`` with the sockets' protocol set to ours, unless it names one (``--ws``)."""
    if any(arg == "--ws" or arg.startswith("--ws=") for arg in argv):
        return argv
    return [*argv, "--ws", "portal.serve:WebSocketProtocol"]


def main(argv: list[str] | None = None) -> None:
    uvicorn_main.Multiprocess = OwnSocketSupervisor  # type: ignore[attr-defined]
    multiprocess.Process = OwnSocketProcess  # type: ignore[misc]
    args = _with_defaults(argv if argv is not None else sys.argv[1:])
    uvicorn_main.main(args=args, prog_name="python -m portal.serve")


if __name__ == "__main__":
    # The module's own name (not __main__) for the classes the workers unpickle and import.
    from portal.serve import main as serve

    serve()
