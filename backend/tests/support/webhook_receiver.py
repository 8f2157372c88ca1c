"""A webhook receiver on 127.0.0.1: records what it is sent, checks each signature with the
secret as Standard Webhooks says, and answers as the test scripts it (a status, a redirect, or
holding the request until released)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def event(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed

    @property
    def webhook_id(self) -> str:
        return self.headers["webhook-id"]


@dataclass(frozen=True)
class Answer:
    status: int = 200
    location: str | None = None
    hold: threading.Event | None = None
    """Wait for this before answering (a receiver that hangs until the test releases it)."""


def signature_is_valid(secret: str, received: Received) -> bool:
    """The check a receiver makes, from the `whsec_…` secret alone."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{received.headers['webhook-id']}.{received.headers['webhook-timestamp']}.".encode() + received.body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    given = [s.split(",", 1)[1] for s in received.headers["webhook-signature"].split() if s.startswith("v1,")]
    return any(hmac.compare_digest(expected, g) for g in given)


@dataclass
class ReceiverState:
    received: list[Received] = field(default_factory=list)
    answers: deque[Answer] = field(default_factory=deque)
    """Answered in turn; once empty, 200."""
    arrived: threading.Condition = field(default_factory=threading.Condition)


class WebhookReceiver:
    def __init__(self) -> None:
        self.state = ReceiverState()
        state = self.state

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                with state.arrived:
                    state.received.append(Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    answer = state.answers.popleft() if state.answers else Answer()
                    state.arrived.notify_all()
                if answer.hold is not None:
                    answer.hold.wait(30)
                self.send_response(answer.status)
                if answer.location:
                    self.send_header("Location", answer.location)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def __enter__(self) -> WebhookReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, *answers: Answer) -> None:
        with self.state.arrived:
            self.state.answers.extend(answers)

    @property
    def received(self) -> list[Received]:
        with self.state.arrived:
            return list(self.state.received)
