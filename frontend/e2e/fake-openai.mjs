// A tiny OpenAI-compatible Chat Completions server on 127.0.0.1, so the e2e suite has a second,
// configured provider ("openai") next to the built-in offline one. Loopback only, no state.
//   PORT=… [FAKE_OPENAI_DELAY_MS=…] node e2e/fake-openai.mjs
import { createServer } from "node:http";

const port = Number(process.env.PORT ?? 0);
const delay = Number(process.env.FAKE_OPENAI_DELAY_MS ?? 0);

// Messages containing "FAIL ONCE" get a 500 the first time they are seen, then a normal answer:
// the composer's error-and-retry path against the real backend.
const failedOnce = new Set();

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    if (req.method === "GET" && req.url?.startsWith("/health")) {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end('{"error":{"message":"not found"}}');
      return;
    }
    let request;
    try {
      request = JSON.parse(body);
    } catch {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end('{"error":{"message":"bad json"}}');
      return;
    }
    const messages = Array.isArray(request.messages) ? request.messages : [];
    const last = [...messages].reverse().find((m) => m.role === "user");
    const system = messages.find((m) => m.role === "system");
    const text = typeof last?.content === "string" ? last.content : "";
    if (text.includes("FAIL ONCE") && !failedOnce.has(text)) {
      failedOnce.add(text);
      res
        .writeHead(500, { "content-type": "application/json" })
        .end('{"error":{"message":"fake upstream failure","type":"server_error"}}');
      return;
    }
    const schema = request.response_format?.json_schema?.name;
    let content;
    if (schema === "checkpoint_review") {
      // A review that points at the first decision, as a real model's finding would.
      content = JSON.stringify({
        findings: [
          {
            kind: "hidden_assumption",
            detail:
              "Fake model: the first decision relies on the flights being affordable, which is not listed.",
            refs: [{ field: "decisions", index: 0 }],
          },
        ],
      });
    } else if (schema === "checkpoint_draft") {
      content = JSON.stringify({
        message: "Drafted by the fake model",
        summary: "A draft from the fake OpenAI server.",
        decisions: [],
        assumptions: [],
        tasks: [],
        open_questions: [],
        entities: [],
      });
    } else {
      content = [
        `**Fake OpenAI** (${request.model}) read ${messages.length} message(s)${system ? " and a Checkpoint" : ""}.`,
        "",
        `You said: ${text.slice(0, 200)}`,
      ].join("\n");
    }
    const reply = {
      id: `chatcmpl-fake-${Date.now()}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 },
    };
    setTimeout(() => {
      if (request.stream) streamReply(res, request, content, reply);
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    }, delay);
  });
});

// As OpenAI streams (Smriti always asks for a stream): chunks of the text, one with the
// finish_reason, one with the usage when `stream_options.include_usage` asks, then [DONE]. A
// message containing "SLOW STREAM" is answered in 12 numbered parts 400 ms apart, so that a
// browser test can watch a reply arrive, stop it, or reload in the middle of it.
function streamReply(res, request, content, reply) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (choices, extra = {}) =>
    `data: ${JSON.stringify({ id: reply.id, object: "chat.completion.chunk", created: reply.created, model: request.model, choices, ...extra })}\n\n`;
  const piece = (text) =>
    chunk([{ index: 0, delta: { role: "assistant", content: text }, finish_reason: null }]);
  const end = () => {
    res.write(chunk([{ index: 0, delta: {}, finish_reason: "stop" }]));
    if (request.stream_options?.include_usage) res.write(chunk([], { usage: reply.usage }));
    res.end("data: [DONE]\n\n");
  };
  const last = [...(request.messages ?? [])].reverse().find((m) => m.role === "user");
  if (String(last?.content ?? "").includes("SLOW STREAM")) {
    let part = 1;
    const next = () => {
      if (res.destroyed) return; // the client went away: Smriti stopped the call
      res.write(piece(`Part ${part} of the slow reply. `));
      part += 1;
      if (part > 12) end();
      else setTimeout(next, 400);
    };
    next();
    return;
  }
  const size = Math.max(1, Math.ceil(content.length / 3));
  for (let i = 0; i < content.length; i += size) res.write(piece(content.slice(i, i + size)));
  end();
}

server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  console.log(
    `fake OpenAI listening on http://127.0.0.1:${typeof address === "object" && address ? address.port : port}`,
  );
});
for (const signal of ["SIGTERM", "SIGINT"])
  process.on(signal, () => server.close(() => process.exit(0)));
