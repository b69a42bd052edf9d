"""permessage-deflate without context takeover (issue 30 item 2): every ReactPy tab keeps its websocket
compressed, but neither side keeps a compressor's window between messages.

uvicorn's websockets protocol (`websockets_sansio_impl`, the one `ws="auto"` picks) negotiates
permessage-deflate with a 4 KiB window and memLevel 5 and keeps the zlib context of each direction for the
connection's life: about 40 KiB of server memory per open tab, most of an idle tab's memory. Asking for
`server_no_context_takeover` and `client_no_context_takeover` makes websockets drop its encoder and decoder
after every message (Chromium and Firefox accept both): messages are still compressed, a few hundred bytes
larger on small updates (9–27 % on large ones, ../shared/research/speed-and-scale.md), and an idle tab holds
no window. uvicorn exposes only on/off (`--ws-per-message-deflate`), so `CompressedWebSocketProtocol` is its
protocol with the connection built again with this offer; `medivisit serve` passes it as `ws=`.

It relies on uvicorn 0.54.0's `WebSocketsSansIOProtocol.__init__` building `self.conn` (a websockets
`ServerProtocol`) from `self.config`, and on websockets 17.4's factory arguments: `install()` checks both and
refuses to start on other versions.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

from medivisit.reactpy_compat._guard import Patch

PATCH = Patch(__name__, package="uvicorn", version="0.54.0")
WEBSOCKETS = Patch(__name__, package="websockets", version="17.4")
WINDOW_BITS = 12  # uvicorn's own choice, kept: the window no longer outlives a message
FACTORY_OPTIONS: dict[str, Any] = {
    "server_no_context_takeover": True,
    "client_no_context_takeover": True,
    "server_max_window_bits": WINDOW_BITS,
    "client_max_window_bits": WINDOW_BITS,
    "compress_settings": {"memLevel": 5},
}


def install() -> type:
    """Check the versions and names this relies on; the uvicorn protocol class to pass as `ws=`."""
    PATCH.check_version()
    WEBSOCKETS.check_version()
    from uvicorn.protocols.websockets import websockets_sansio_impl as sansio
    from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
    from websockets.server import ServerProtocol

    base = PATCH.find(sansio, "WebSocketsSansIOProtocol")
    PATCH.require(sansio, "ServerProtocol")
    accepted = inspect.signature(ServerPerMessageDeflateFactory).parameters
    missing = [name for name in FACTORY_OPTIONS if name not in accepted]
    if missing:
        WEBSOCKETS.fail(f"ServerPerMessageDeflateFactory takes no {', '.join(missing)}")

    class CompressedWebSocketProtocol(base):  # type: ignore[misc, valid-type]
        """uvicorn's websockets protocol, its connection offering deflate without context takeover."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            if not isinstance(getattr(self, "conn", None), ServerProtocol):
                PATCH.fail("WebSocketsSansIOProtocol no longer builds self.conn")
            extensions = (
                [ServerPerMessageDeflateFactory(**FACTORY_OPTIONS)]
                if self.config.ws_per_message_deflate
                else []
            )
            self.conn = ServerProtocol(
                extensions=extensions,
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    return CompressedWebSocketProtocol
