"""A small real OpenAI-compatible chat-completions server for the assistant's tests (like
tests/stripe_standin.py for Stripe): POST /v1/chat/completions with "stream": true answers with
server-sent events, one `chat.completion.chunk` per piece of `pieces`, then `data: [DONE]`.

After the first piece it waits for `release` (a threading.Event the test sets once it has seen that piece
arrive), so a test can tell that the text really streamed in before the answer was complete. Requests are
recorded (`requests`: the parsed JSON bodies and the Authorization header).
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class LlmStandIn:
    url: str = ""
    pieces: list[str] = field(default_factory=list)
    status: int = 200
    requests: list[tuple[dict[str, Any], str]] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)


def _chunk(content: str) -> bytes:
    body: dict[str, Any] = {"id": "chatcmpl-standin", "object": "chat.completion.chunk", "model": "standin"}
    body["choices"] = [{"index": 0, "delta": {"content": content}, "finish_reason": None}]
    return f"data: {json.dumps(body)}\n\n".encode()


def serve() -> tuple[LlmStandIn, ThreadingHTTPServer]:
    standin = LlmStandIn()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:  # noqa: N802 - http.server's hook name
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            standin.requests.append((body, self.headers.get("Authorization", "")))
            if self.path != "/v1/chat/completions" or standin.status != 200:
                self.send_response(standin.status if standin.status != 200 else 404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for index, piece in enumerate(standin.pieces):
                self._send(_chunk(piece))
                if index == 0:
                    standin.release.wait(timeout=10)
            self._send(b"data: [DONE]\n\n")
            self._send(b"")

        def _send(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    standin.url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return standin, server
