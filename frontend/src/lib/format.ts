const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const absolute = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short" });

/** "5 minutes ago", "yesterday", "just now". */
export function timeAgo(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

export function formatDateTime(iso: string): string {
  return absolute.format(new Date(iso));
}

/** The first 7 hex digits, the way Checkpoints are named in the UI. */
export function shortHash(hash: string): string {
  return hash.slice(0, 7);
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

export const USAGE_NOTE =
  "Tokens as the providers reported them. The offline provider, a stopped reply, an imported one and some servers report none.";

/** Token counts as reported by the providers: "1,240 tokens in · 310 out", "+2 uncounted" when
 * some replies reported none (the sums are then lower bounds); "" when nothing was counted. */
export function formatUsage(usage: {
  input_tokens: number;
  output_tokens: number;
  uncounted_replies: number;
}): string {
  const counted = usage.input_tokens + usage.output_tokens > 0;
  const parts = counted
    ? [
        `${usage.input_tokens.toLocaleString("en")} tokens in · ${usage.output_tokens.toLocaleString("en")} out`,
      ]
    : [];
  if (usage.uncounted_replies > 0)
    parts.push(`${plural(usage.uncounted_replies, "reply", "replies")} without counts`);
  return parts.join(", ");
}
