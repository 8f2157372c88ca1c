import { Fragment } from "react";
import type { Checkpoint } from "@/api/models";
import { isRecord } from "@/lib/is-record";

/** Keys the detail's header already shows as "By" (with what was claimed), "Drafted by" and the
 * Turns drafted from. */
const shownAbove = new Set(["author", "claimed_author", "drafted_by", "source"]);

/** "tool_version" → "Tool version". */
function label(key: string): string {
  const words = key.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function text(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(text).join(", ");
  if (isRecord(value)) {
    return Object.entries(value)
      .map(([k, v]) => `${label(k)}: ${text(v)}`)
      .join(" · ");
  }
  return JSON.stringify(value);
}

/**
 * The metadata as readable fields, without repeating what the header shows; the exact JSON stays
 * one click away (it is what the hash covers, so it must be inspectable).
 */
export function MetadataView({ metadata }: { metadata: Checkpoint["metadata"] }) {
  const rest = Object.entries(metadata).filter(([key]) => !shownAbove.has(key));
  return (
    <div className="metadata" data-testid="metadata">
      {rest.length > 0 && (
        <dl className="detail-facts">
          {rest.map(([key, value]) => (
            <Fragment key={key}>
              <dt>{label(key)}</dt>
              <dd>{text(value)}</dd>
            </Fragment>
          ))}
        </dl>
      )}
      <details className="raw-json">
        <summary className="small">Raw metadata (JSON)</summary>
        <pre className="code-block small wrap">{JSON.stringify(metadata, null, 2)}</pre>
      </details>
    </div>
  );
}
