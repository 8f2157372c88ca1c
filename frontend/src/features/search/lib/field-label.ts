import { itemNames } from "@/lib/checkpoint-fields";

const PARTS: Record<string, string> = { message: "Message", ...itemNames };

/** The API's `field` of a Checkpoint hit in words: `decisions[2]` → "Decision 3",
 * `entities[0].description` → "Entity 1 · description". Anything else is shown as it is. */
export function fieldLabel(field: string): string {
  const match = /^([a-z_]+)(?:\[(\d+)\])?(?:\.([a-z_]+))?$/.exec(field);
  const part = match?.[1] ? PARTS[match[1]] : undefined;
  if (!match || !part) return field;
  const numbered = match[2] === undefined ? part : `${part} ${Number(match[2]) + 1}`;
  return match[3] === undefined || match[3] === "text" ? numbered : `${numbered} · ${match[3]}`;
}
