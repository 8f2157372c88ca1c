import { execFileSync } from "node:child_process";
import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests against the real backend (offline provider + a fake OpenAI-compatible server,
 * fresh embedded database), driving Debian's Chromium. Playwright never downloads a browser here.
 * The ports are chosen once, in the main process, and inherited by the workers through the env.
 */
function freePort(): string {
  return execFileSync(process.execPath, [
    "-e",
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}
process.env.E2E_PORT ??= freePort();
process.env.E2E_FAKE_OPENAI_PORT ??= freePort();
const port = process.env.E2E_PORT;
const fakePort = process.env.E2E_FAKE_OPENAI_PORT;
const baseURL = `http://127.0.0.1:${port}`;

export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: Boolean(process.env.CI),
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL,
    browserName: "chromium",
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: chromiumArgs,
    },
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1280, height: 800 },
        deviceScaleFactor: 1,
      },
    },
  ],
  webServer: [
    {
      command: "node e2e/fake-openai.mjs",
      env: { PORT: fakePort, FAKE_OPENAI_DELAY_MS: "400" },
      url: `http://127.0.0.1:${fakePort}/health`,
      reuseExistingServer: false,
      stdout: "ignore",
      timeout: 20_000,
    },
    {
      // Builds the app, then serves it from the real backend.
      command: `${process.env.E2E_SKIP_BUILD ? "" : "npx vite build --logLevel warn && "}node e2e/start-backend.mjs`,
      env: { PORT: port, FAKE_OPENAI_PORT: fakePort },
      url: `${baseURL}/health`,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      timeout: 180_000,
      gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    },
  ],
});
