/**
 * A request id for an idempotent send (matches the API's `^[A-Za-z0-9._:-]+$`). Uses
 * getRandomValues, which, unlike randomUUID, also exists on plain-http origins.
 */
export function newRequestId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
