"""OpenAI- and Anthropic-compatible HTTP endpoints on 127.0.0.1 for the real SDKs to talk to.

The server records every request body it receives, so tests can assert on exactly what went over
the wire, and can be told to fail in the ways real providers fail.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Mode = Literal[
    "ok",
    "error500",
    "ratelimit",
    "hang",
    "malformed",
    "redirect",
    "empty",
    "echo_key",
    "unknown_model",
    "not_found",
    "error_surrogate",
    "trickle",
]


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeProviderState:
    mode: Mode = "ok"
    reply: str = "Fake provider reply."
    hang_seconds: float = 5.0
    delay_seconds: float = 0.0
    """Every answer waits this long first (a slow model), without timing out."""
    raw_reply: str | None = None
    """When set, the exact JSON text of the reply's message content (escapes such as \\u0000 and
    \\ud800 survive as written, which a Python string could not carry through json.dumps)."""
    reply_fields: dict[str, Any] = field(default_factory=dict)
    """Top-level fields of the reply replaced as given (a `model`, a `usage`)."""
    refuse_formats: tuple[str, ...] = ()
    """OpenAI `response_format` types refused, as llama.cpp's servers do."""
    refuse_status: int = 400
    requests: list[RecordedRequest] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        with self.lock:
            self.mode = "ok"
            self.reply = "Fake provider reply."
            self.delay_seconds = 0.0
            self.raw_reply = None
            self.reply_fields = {}
            self.refuse_formats = ()
            self.refuse_status = 400
            self.requests.clear()

    def bodies(self, path_suffix: str) -> list[dict[str, Any]]:
        with self.lock:
            return [r.body for r in self.requests if r.path.endswith(path_suffix)]


def _openai_reply(model: str, text: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


def _anthropic_reply(model: str, text: str) -> dict[str, Any]:
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 13, "output_tokens": 5},
    }


def make_handler(state: FakeProviderState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            return

        def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(payload)

        def do_POST(self) -> None:  # noqa: PLR0912 (one branch per way of failing)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            body = json.loads(raw or b"{}")
            with state.lock:
                state.requests.append(RecordedRequest(self.path, dict(self.headers.items()), body))
                mode, reply = state.mode, state.reply
            model = str(body.get("model", "fake-model"))
            is_openai = self.path.endswith("/chat/completions")
            if state.delay_seconds:
                time.sleep(state.delay_seconds)
            response_format = (body.get("response_format") or {}).get("type")
            if is_openai and response_format in state.refuse_formats:
                # llama.cpp's server: 400; llama-cpp-python's: 500 with a validation error naming it.
                detail = f"response_format: Input should be 'text' or 'json_object', got {response_format!r}"
                self._send(state.refuse_status, json.dumps({"error": {"message": detail, "type": "invalid"}}).encode())
                return
            if mode == "hang":
                time.sleep(state.hang_seconds)
                mode = "ok"
            if mode == "error500":
                self._send(500, b'{"error": {"message": "upstream exploded", "type": "server_error"}}')
            elif mode == "ratelimit":
                self._send(
                    429,
                    b'{"error": {"message": "slow down", "type": "rate_limit_error"}}',
                    {"retry-after": "0"},
                )
            elif mode == "malformed":
                self._send(200, b'{"choices": [ {"message": ')
            elif mode == "redirect":
                self._send(307, b"{}", {"Location": "http://127.0.0.1:9/elsewhere"})
            elif mode == "echo_key":
                # A careless upstream that repeats the credential it received in its error text.
                key = self.headers.get("Authorization", "") + " " + self.headers.get("x-api-key", "")
                message = json.dumps({"error": {"message": f"Incorrect API key provided: {key}", "type": "auth"}})
                self._send(401, message.encode())
            elif mode == "unknown_model":
                error: dict[str, Any]
                if is_openai:
                    message = f"The model `{model}` does not exist or you do not have access to it."
                    error = {"error": {"message": message, "type": "invalid_request_error", "code": "model_not_found"}}
                else:
                    error = {"type": "error", "error": {"type": "not_found_error", "message": f"model: {model}"}}
                self._send(404, json.dumps(error).encode())
            elif mode == "error_surrogate":
                # An error body whose JSON spells a lone surrogate; the SDKs' json.loads accepts it.
                self._send(400, b'{"error": {"message": "bad \\ud800 input", "type": "invalid_request_error"}}')
            elif mode == "trickle":
                # A byte at a time, each within any read timeout: only a deadline on the whole call stops it.
                trickled = json.dumps(_openai_reply(model, reply) if is_openai else _anthropic_reply(model, reply))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(trickled)))
                self.end_headers()
                for byte in trickled.encode():
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    time.sleep(0.1)
            elif mode == "not_found":
                self._send(404, b'{"error": {"message": "Not Found", "type": "not_found"}}')
            elif mode == "empty":
                payload = _openai_reply(model, "") if is_openai else _anthropic_reply(model, "")
                self._send(200, json.dumps(payload).encode())
            else:
                payload = _openai_reply(model, reply) if is_openai else _anthropic_reply(model, reply)
                payload.update(state.reply_fields)
                encoded = json.dumps(payload)
                if state.raw_reply is not None:
                    encoded = encoded.replace(json.dumps(reply), state.raw_reply, 1)
                self._send(200, encoded.encode())

    return Handler


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gave up on a hanging reply closes the socket; that is the point of the test.
        return


class FakeProviderServer:
    def __init__(self) -> None:
        self.state = FakeProviderState()
        self._server = _QuietServer(("127.0.0.1", 0), make_handler(self.state))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def openai_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def anthropic_base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> FakeProviderServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
