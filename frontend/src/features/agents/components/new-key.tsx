import type { NewAgentKey } from "@/api/v5";
import { CopyButton } from "@/components/copy-button";

/**
 * The key just made, shown this once: the server keeps only its hash, so closing this is the
 * last time anyone sees it.
 */
export function NewKey({ made, onDone }: { made: NewAgentKey; onDone: () => void }) {
  return (
    <section className="card new-key" aria-label={`Key for ${made.name}`} data-testid="new-key">
      <h2>Key for {made.name}</h2>
      <p className="new-key-warning" role="note">
        <b>Copy it now: you will not see it again.</b> Smriti keeps only its hash; a lost key is
        revoked and replaced, not recovered.
      </p>
      <div className="new-key-value">
        <input
          aria-label="The new key"
          readOnly
          value={made.token}
          spellCheck={false}
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton text={() => made.token} label="Copy key" className="btn primary" />
      </div>
      <p className="muted small">
        Give it to the agent as <code>SMRITI_API_TOKEN</code> (CLI and MCP over stdio) or as{" "}
        <code>Authorization: Bearer …</code> (HTTP and MCP over HTTP).
      </p>
      <button type="button" className="btn" onClick={onDone}>
        I have copied it
      </button>
    </section>
  );
}
