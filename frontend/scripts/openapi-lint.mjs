// Lints the backend's OpenAPI document with Redocly's recommended rules, as third-party tooling
// sees it; any problem fails, warnings included (exit 1).
//   node scripts/openapi-lint.mjs
// The document comes from `smriti openapi`, as in openapi-types.mjs (SMRITI_BIN, OPENAPI_FILE).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function loadDocument() {
  if (process.env.OPENAPI_FILE) return readFileSync(process.env.OPENAPI_FILE, "utf8");
  const bin = process.env.SMRITI_BIN ?? resolve(root, "../.venv/bin/smriti");
  if (!existsSync(bin)) {
    console.error(`openapi-lint: ${bin} not found; install the backend first (make install).`);
    process.exit(2);
  }
  return execFileSync(bin, ["openapi"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

const folder = mkdtempSync(join(tmpdir(), "smriti-openapi-"));
try {
  const file = join(folder, "openapi.json");
  writeFileSync(file, loadDocument());
  const redocly = resolve(root, "node_modules/.bin/redocly");
  const run = spawnSync(redocly, ["lint", file, "--extends=recommended", "--format=json"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const report = JSON.parse(run.stdout || '{"problems": []}');
  for (const problem of report.problems) {
    const where = problem.location?.[0]?.pointer ?? "";
    console.error(`${problem.severity} ${problem.ruleId}: ${problem.message} ${where}`);
  }
  if (run.status !== 0 && report.problems.length === 0) console.error(run.stderr);
  if (report.problems.length > 0 || run.status !== 0) process.exit(1);
  console.log("openapi-lint: Redocly's recommended rules find nothing.");
} finally {
  rmSync(folder, { recursive: true, force: true });
}
