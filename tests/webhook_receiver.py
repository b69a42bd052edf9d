"""A real HTTP receiver for the automation webhooks: a threaded `http.server` on 127.0.0.1 that records
every request (headers and raw body) and answers from a script (status codes queued with `answer`, then
`default`); `drop` closes the connection without an answer. `wait_for(n)` waits on a condition, never a
sleep."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DROP = -1


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    def __init__(self, default: int = 200) -> None:
        self.default = default
        self.requests: list[Received] = []
        self._script: deque[int] = deque()
        self._changed = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's hook
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                with receiver._changed:
                    status = receiver._script.popleft() if receiver._script else receiver.default
                    receiver.requests.append(
                        Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                    )
                    receiver._changed.notify_all()
                if status == DROP:
                    self.close_connection = True
                    self.connection.close()
                    return
                answer = b'{"message":"Workflow was started"}' if status < 400 else b'{"message":"nope"}'
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *_args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> Receiver:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def url(self, path: str = "/webhook/medivisit") -> str:
        return f"http://127.0.0.1:{self._server.server_port}{path}"

    def answer(self, *statuses: int) -> None:
        with self._changed:
            self._script.extend(statuses)

    def wait_for(self, count: int, timeout: float = 10) -> list[Received]:
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.requests) >= count, timeout):
                raise AssertionError(f"expected {count} request(s), got {len(self.requests)}")
            return list(self.requests)
