"""OpenAI- and Anthropic-compatible HTTP endpoints on 127.0.0.1 for the real SDKs to talk to.

The server records every request body it receives, so tests can assert on exactly what went over
the wire, and can be told to fail in the ways real providers fail.
"""

from __future__ import annotations

import gzip
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
    "endless_event",
    "huge_error",
    "gzip",
    "too_long",
]


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    cut: bool = False
    """Streamed, and the client closed it before its end."""


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
    at_limit: bool = False
    """Streamed: the reply ends at its token limit (`finish_reason: length`, `stop_reason: max_tokens`)."""
    pieces: int = 3
    """A streamed reply is sent in this many pieces (or fewer, for a short reply)."""
    piece_delay_seconds: float = 0.0
    """The wait before each streamed piece after the first."""
    cut_after_pieces: int | None = None
    """Streamed: after this many pieces, the connection closes, with no end (no finish, no stop)."""
    fail_after_pieces: int | None = None
    """Streamed: after this many pieces, an error event instead of the rest."""
    stream_usage: bool = True
    """Streamed (OpenAI): honour `stream_options.include_usage`; False ignores it, as some servers do."""
    refuse_stream_options: bool = False
    """OpenAI: refuse a request with `stream_options` (400 naming it), as some compatible servers do."""
    listed_models: list[Any] | None = None
    """`GET /v1/models` answers these ids (both APIs); None: 404, as many compatible servers do."""
    models_never_end: bool = False
    """Anthropic's `GET /v1/models`: every page says there is another (`has_more`), for ever."""
    huge_bytes: int = 64 * 2**20
    """`endless_event`: a streamed reply of one event this long that never ends; `huge_error`: an
    error body this long (status `refuse_status`). Either is written until the client hangs up."""
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
            self.at_limit = False
            self.pieces = 3
            self.piece_delay_seconds = 0.0
            self.fail_after_pieces = None
            self.cut_after_pieces = None
            self.stream_usage = True
            self.refuse_stream_options = False
            self.listed_models = None
            self.models_never_end = False
            self.huge_bytes = 64 * 2**20
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


def split_reply(text: str, count: int) -> list[str]:
    """`text` in at most `count` pieces of about equal length, joined back exactly."""
    size = max(1, -(-len(text) // max(1, count)))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _openai_chunks(
    model: Any, pieces: list[str], usage: dict[str, Any] | None, finish: str = "stop"
) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None) -> dict[str, Any]:
        choice = {"index": 0, "delta": delta, "finish_reason": finish}
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [choice],
        }

    chunks = [chunk({"role": "assistant", "content": piece}, None) for piece in pieces]
    chunks.append(chunk({}, finish))
    if usage is not None:
        chunks.append({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 0, "model": model,
                       "choices": [], "usage": usage})  # fmt: skip
    return chunks


def _anthropic_events(
    model: Any, pieces: list[str], usage: dict[str, Any], tool: str | None, stop: str = "end_turn"
) -> list[dict[str, Any]]:
    message: dict[str, Any] = {"id": "msg_fake", "type": "message", "role": "assistant", "model": model, "content": [],
               "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": usage.get("input_tokens"), "output_tokens": 1}}  # fmt: skip
    block: dict[str, Any] = {"type": "text", "text": ""}
    if tool is not None:
        block = {"type": "tool_use", "id": "toolu_fake", "name": tool, "input": {}}
    delta_type, field_name = ("input_json_delta", "partial_json") if tool else ("text_delta", "text")
    return [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": block},
        *({"type": "content_block_delta", "index": 0, "delta": {"type": delta_type, field_name: p}} for p in pieces),
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": {"output_tokens": usage.get("output_tokens")},
        },
        {"type": "message_stop"},
    ]


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

        def _stream(self, body: dict[str, Any], model: str, reply: str, mode: str, is_openai: bool) -> None:
            """A streamed reply as each provider sends one (server-sent events)."""
            try:
                self._stream_events(body, model, reply, mode, is_openai)
            except (BrokenPipeError, ConnectionResetError):
                self.recorded.cut = True

        def _stream_events(  # noqa: PLR0912 (one branch per way of failing)
            self, body: dict[str, Any], model: str, reply: str, mode: str, is_openai: bool
        ) -> None:
            # A raw reply replaces the text as written, in one piece.
            pieces = [reply] if state.raw_reply is not None else split_reply(reply, state.pieces)
            if is_openai:
                with_usage = state.stream_usage and (body.get("stream_options") or {}).get("include_usage")
                usage = state.reply_fields.get("usage", _openai_reply(model, reply)["usage"]) if with_usage else None
                answered = state.reply_fields.get("model", model)
                finish = "length" if state.at_limit else "stop"
                events = [(None, chunk) for chunk in _openai_chunks(answered, pieces, usage, finish)]
            else:
                usage = state.reply_fields.get("usage", _anthropic_reply(model, reply)["usage"])
                tool = (body.get("tool_choice") or {}).get("name")
                answered = state.reply_fields.get("model", model)
                stop = "max_tokens" if state.at_limit else "end_turn"
                events = [(e["type"], e) for e in _anthropic_events(answered, pieces, usage, tool, stop)]
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()  # no length: the stream ends when the connection closes
            self.close_connection = True
            sent = 0
            for name, event in events:
                encoded = json.dumps(event)
                is_piece = ('"content": ' in encoded and is_openai) or (not is_openai and name == "content_block_delta")
                if is_piece:
                    if state.cut_after_pieces is not None and sent >= state.cut_after_pieces:
                        return
                    if state.fail_after_pieces is not None and sent >= state.fail_after_pieces:
                        error: dict[str, Any] = {
                            "error": {"message": "overloaded mid-stream", "type": "overloaded_error"}
                        }
                        if not is_openai:
                            error = {"type": "error", **error}
                        self._event("error" if not is_openai else None, json.dumps(error))
                        return
                    if sent and state.piece_delay_seconds:
                        time.sleep(state.piece_delay_seconds)
                    sent += 1
                    if state.raw_reply is not None and sent == 1:
                        encoded = encoded.replace(json.dumps(pieces[0]), state.raw_reply, 1)
                if mode == "malformed" and is_piece:
                    self._event(name, '{"choices": [ {"delta": ')
                    return
                if mode == "trickle":
                    for byte in f"data: {encoded}\n\n".encode():
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        time.sleep(0.1)
                    continue
                self._event(name, encoded)
            if is_openai:
                self._event(None, "[DONE]")

        def _hostile(self, body: dict[str, Any], model: str, mode: str, is_openai: bool) -> None:
            """What no provider should send: an event or an error body far longer than any reply,
            or a body compressed although the client asked for none."""
            if mode == "gzip":
                pieces = split_reply(state.reply, state.pieces)
                if is_openai:
                    chunks = _openai_chunks(model, pieces, None)
                    events = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in chunks) + "data: [DONE]\n\n"
                else:
                    usage = {"input_tokens": 1, "output_tokens": 1}
                    listed = _anthropic_events(model, pieces, usage, None)
                    events = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in listed)
                self._send(200, gzip.compress(events.encode()), {"Content-Encoding": "gzip"})
                return
            error = mode == "huge_error"
            self.send_response(state.refuse_status if error else 200)
            self.send_header("Content-Type", "application/json" if error else "text/event-stream")
            if error:
                self.send_header("Content-Length", str(state.huge_bytes))
                self.send_header("retry-after", "0")
            self.end_headers()
            self.close_connection = True
            head = b'{"error": {"message": "' if error else b'data: {"choices": [{"index": 0, "delta": {"content": "'
            written, block = len(head), b"y" * 65536
            try:
                self.wfile.write(head)
                while written < state.huge_bytes:
                    self.wfile.write(block[: state.huge_bytes - written])
                    written += len(block)
            except (BrokenPipeError, ConnectionResetError):
                self.recorded.cut = True

        def _event(self, name: str | None, data: str) -> None:
            self.wfile.write((f"event: {name}\n" if name else "").encode() + f"data: {data}\n\n".encode())
            self.wfile.flush()

        def do_GET(self) -> None:
            with state.lock:
                self.recorded = RecordedRequest(self.path, dict(self.headers.items()), {})
                state.requests.append(self.recorded)
                listed = state.listed_models
            if not self.path.split("?")[0].endswith("/models") or listed is None:
                self._send(404, b'{"error": {"message": "Not Found", "type": "not_found"}}')
                return
            if "anthropic-version" in {name.lower() for name in self.headers}:
                data = [
                    {"type": "model", "id": m, "display_name": str(m), "created_at": "2025-01-01T00:00:00Z"}
                    for m in listed
                ]
                last = data[-1]["id"] if data else None
                page = {"data": data, "has_more": state.models_never_end, "first_id": None, "last_id": last}
            else:
                page = {
                    "object": "list",
                    "data": [{"id": m, "object": "model", "created": 0, "owned_by": "x"} for m in listed],
                }
            self._send(200, json.dumps(page).encode())

        def do_POST(self) -> None:  # noqa: PLR0912 (one branch per way of failing)
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            body = json.loads(raw or b"{}")
            with state.lock:
                self.recorded = RecordedRequest(self.path, dict(self.headers.items()), body)
                state.requests.append(self.recorded)
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
            if is_openai and body.get("stream") and "stream_options" in body and state.refuse_stream_options:
                self._send(400, b'{"error": {"message": "Unrecognized request argument: stream_options"}}')
                return
            if mode in ("endless_event", "huge_error", "gzip"):
                self._hostile(body, model, mode, is_openai)
                return
            if body.get("stream") and mode in ("ok", "empty", "malformed", "trickle"):
                self._stream(body, model, "" if mode == "empty" else reply, mode, is_openai)
                return
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
            elif mode == "too_long":
                # What each says of a context longer than the model's window: llama.cpp's server
                # and Anthropic (a 400 either way).
                if is_openai:
                    message = "the request exceeds the available context size, try increasing it"
                    error = {"error": {"code": 400, "message": message, "type": "exceed_context_size_error"}}
                else:
                    message = "prompt is too long: 210000 tokens > 200000 maximum"
                    error = {"type": "error", "error": {"type": "invalid_request_error", "message": message}}
                self._send(400, json.dumps(error).encode())
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


def last_sent(fake: FakeProviderServer, provider: str) -> tuple[str, str | None, list[dict[str, str]]]:
    """What the fake provider last received: the model, the system text and the messages."""
    body = fake.state.bodies("/chat/completions" if provider == "openai" else "/messages")[-1]
    messages = [{"role": m["role"], "content": m["content"]} for m in body["messages"]]
    if provider == "openai":
        system = messages.pop(0)["content"] if messages and messages[0]["role"] == "system" else None
    else:
        raw = body.get("system")
        system = raw if isinstance(raw, str) or raw is None else "".join(block["text"] for block in raw)
    return body["model"], system, messages
