// Generates src/api/schema.d.ts from the backend's OpenAPI document.
//   node scripts/openapi-types.mjs          regenerate
//   node scripts/openapi-types.mjs --check  fail (exit 1) when the committed file is stale
// The document comes from `smriti openapi` (no database needed). SMRITI_BIN overrides the
// command (default: the repository's ../.venv/bin/smriti); OPENAPI_FILE reads a saved document.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = resolve(root, "src/api/schema.d.ts");
const check = process.argv.includes("--check");

function loadDocument() {
  if (process.env.OPENAPI_FILE) return readFileSync(process.env.OPENAPI_FILE, "utf8");
  const bin = process.env.SMRITI_BIN ?? resolve(root, "../.venv/bin/smriti");
  if (!existsSync(bin)) {
    console.error(`openapi-types: ${bin} not found; install the backend first (make install).`);
    process.exit(2);
  }
  return execFileSync(bin, ["openapi"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
}

const document = JSON.parse(loadDocument());
const header =
  "// Generated from the backend's OpenAPI document by scripts/openapi-types.mjs.\n" +
  "// Do not edit: run `npm run types` (or `make types`).\n\n";
const generated =
  header + astToString(await openapiTS(document, { alphabetize: true, defaultNonNullable: false }));

if (check) {
  const current = existsSync(target) ? readFileSync(target, "utf8") : "";
  if (current !== generated) {
    console.error(
      "src/api/schema.d.ts is stale: the backend's OpenAPI document changed. Run `npm run types` and commit the result.",
    );
    process.exit(1);
  }
  console.log("src/api/schema.d.ts is up to date.");
} else {
  writeFileSync(target, generated);
  console.log(`wrote ${target}`);
}
