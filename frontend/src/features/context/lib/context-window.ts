/**
 * How large a context is "large" for the model. The context preview does not say how many tokens
 * a model takes yet (a later issue adds real context windows), so every model is assumed to have
 * a conservative default window, and the panel warns above a share of it. Change them here only.
 */
export const DEFAULT_CONTEXT_WINDOW_TOKENS = 8_000;
/** Warn when the context takes more than this share of the model's window. */
export const LARGE_CONTEXT_SHARE = 0.75;

/** The context window assumed for a model; the same default for every model until one is known. */
export function contextWindowFor(_provider: string, _model: string): number {
  return DEFAULT_CONTEXT_WINDOW_TOKENS;
}

/** The share of the window the context takes when it is large (0.8 = 80 %), else null. */
export function largeContextShare(tokens: number, provider: string, model: string): number | null {
  const share = tokens / contextWindowFor(provider, model);
  return share > LARGE_CONTEXT_SHARE ? share : null;
}
