import type { ContextPreview } from "@/api/models";

/** The context as the panel shows it, as plain text: the system text, then each message. */
export function contextText(ctx: Pick<ContextPreview, "system" | "messages">): string {
  const parts: string[] = [];
  if (ctx.system) parts.push(`System:\n${ctx.system}`);
  for (const m of ctx.messages) {
    const seq = m.sequence_number !== null ? `#${m.sequence_number} ` : "";
    parts.push(`${seq}${m.role === "user" ? "You" : "Assistant"}:\n${m.content}`);
  }
  return `${parts.join("\n\n")}\n`;
}
