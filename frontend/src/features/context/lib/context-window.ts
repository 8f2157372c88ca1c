/**
 * How full the context is, against the model's window as the server knows it
 * (`context_window` in the preview: the server's table and `SMRITI_CONTEXT_WINDOWS`; null when
 * unknown). The server refuses a send that would not fit and recommends a Checkpoint from the
 * same share; this only shows it.
 */

/** Warn from this share of the model's window, as the server's suggestion does. */
export const LARGE_CONTEXT_SHARE = 0.75;

/** The share of the window the context takes (0.8 = 80 %), capped at 1; null when unknown. */
export function windowShare(tokens: number, window: number | null | undefined): number | null {
  if (!window) return null;
  return Math.min(1, tokens / window);
}

/** The share when it is large enough to warn about, else null. */
export function largeContextShare(
  tokens: number,
  window: number | null | undefined,
): number | null {
  const share = windowShare(tokens, window);
  return share !== null && share >= LARGE_CONTEXT_SHARE ? share : null;
}
