// Starts the real backend for the e2e suite: `smriti serve` on 127.0.0.1 with a fresh embedded
// database in a temporary folder, serving this build (dist/). Only the offline provider and the
// fake OpenAI server (OPENAI_BASE_URL) are configured; Anthropic stays unconfigured.
// Stops the server (and with it the embedded PostgreSQL) on SIGTERM/SIGINT, then removes the folder.
//   PORT=… FAKE_OPENAI_PORT=… node e2e/start-backend.mjs
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = process.env.SMRITI_BIN ?? resolve(root, "../.venv/bin/smriti");
const port = process.env.PORT ?? "8000";
const dataDir = mkdtempSync(join(tmpdir(), "smriti-e2e-"));

const env = {
  ...process.env,
  SMRITI_DATA_DIR: dataDir,
  SMRITI_WEB_DIR: resolve(root, "dist"),
  ANTHROPIC_API_KEY: "",
  OPENAI_API_KEY: "test-key",
  OPENAI_BASE_URL: `http://127.0.0.1:${process.env.FAKE_OPENAI_PORT}/v1`,
  SMRITI_PROVIDER_MAX_RETRIES: "0",
  SMRITI_DEFAULT_PROVIDER: "offline",
};
delete env.DATABASE_URL;
delete env.SMRITI_API_TOKEN;

const child = spawn(bin, ["serve", "--host", "127.0.0.1", "--port", port], {
  env,
  stdio: "inherit",
});
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  child.kill("SIGTERM");
};
child.on("exit", (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(stopping ? 0 : (code ?? 1));
});
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, stop);
