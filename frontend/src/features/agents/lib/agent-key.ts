import type { AgentCreate, AgentKey } from "@/api/v5";

/** The Spaces an agent key reaches, said as a person reads them. */
export function describeReach(
  spaces: AgentKey["spaces"],
  spaceNames: ReadonlyMap<string, string>,
): string {
  if (spaces === null) return "every Space";
  if (spaces.length === 0) return "no Space";
  // A Space deleted since the key was made stays in its list (the server keeps ids, not names).
  const names = spaces.map((id) => spaceNames.get(id) ?? "a deleted Space");
  return names.join(", ");
}

/** "writes" or "read-only": what the key may do in the Spaces it reaches. */
export function describeAccess(key: Pick<AgentKey, "write">): string {
  return key.write ? "reads and writes" : "read-only";
}

/** The create form as typed: `every` reaches every Space (and may create Spaces). */
export interface AgentForm {
  name: string;
  every: boolean;
  chosen: readonly string[];
  write: boolean;
}

export const emptyAgentForm: AgentForm = { name: "", every: false, chosen: [], write: true };

/**
 * The request the form makes, or why it cannot be sent yet. A key for no Space could do
 * nothing, so the form asks for one rather than make it.
 */
export function agentRequest(form: AgentForm): { body: AgentCreate } | { missing: string } {
  const name = form.name.trim();
  if (!name) return { missing: "Name the agent." };
  if (!form.every && form.chosen.length === 0)
    return { missing: "Choose the Spaces it may reach, or every Space." };
  return { body: { name, spaces: form.every ? null : [...form.chosen], write: form.write } };
}

/** Adds or removes one Space from the chosen ones, keeping the order they were chosen in. */
export function toggleSpace(chosen: readonly string[], spaceId: string): string[] {
  return chosen.includes(spaceId) ? chosen.filter((id) => id !== spaceId) : [...chosen, spaceId];
}
