// Checks the initial-JavaScript budget of the production build (dist/):
// every script the first page load fetches (index.html's module entry and its modulepreloads),
// gzipped at level 9. Writes dist/budgets.json for the e2e budget report.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

export const INITIAL_JS_BUDGET_KB = 250;

const dist = resolve(dirname(fileURLToPath(import.meta.url)), "../dist");
const html = readFileSync(resolve(dist, "index.html"), "utf8");
const scripts = [
  ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
].map((m) => m[1]);
if (scripts.length === 0) {
  console.error("check-budgets: no script found in dist/index.html; build first (npm run build).");
  process.exit(2);
}
let raw = 0;
let gzip = 0;
for (const src of new Set(scripts)) {
  const bytes = readFileSync(resolve(dist, `.${src}`));
  raw += bytes.length;
  gzip += gzipSync(bytes, { level: 9 }).length;
}
const kb = (n) => Math.round((n / 1024) * 10) / 10;
const result = {
  initial_js_files: scripts.length,
  initial_js_kb: kb(raw),
  initial_js_gzip_kb: kb(gzip),
  budget_gzip_kb: INITIAL_JS_BUDGET_KB,
};
writeFileSync(resolve(dist, "budgets.json"), `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `Initial JavaScript: ${result.initial_js_files} file(s), ${result.initial_js_kb} KB, ${result.initial_js_gzip_kb} KB gzip (budget ${INITIAL_JS_BUDGET_KB} KB gzip)`,
);
if (result.initial_js_gzip_kb > INITIAL_JS_BUDGET_KB) {
  console.error(`Over budget by ${kb(gzip) - INITIAL_JS_BUDGET_KB} KB gzip.`);
  process.exit(1);
}
