"""A uvicorn server that says where it serves once it listens."""

from __future__ import annotations

import socket
from collections.abc import Callable

import uvicorn

__all__ = ["announcing_server"]


def announcing_server(config: uvicorn.Config, announce: Callable[[int], None]) -> uvicorn.Server:
    """A server that gives ``announce`` its port once it listens on it. Given port 0, the system
    picks a free one as the server binds: a port picked beforehand can be taken by another process
    in between."""
    return _Announcing(config, announce)


class _Announcing(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, announce: Callable[[int], None]) -> None:
        super().__init__(config)
        self._announce = announce

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)  # it exits the process if the server cannot start
        self._announce(int(self.servers[0].sockets[0].getsockname()[1]))
