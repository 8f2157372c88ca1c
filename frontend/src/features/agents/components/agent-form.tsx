import { type FormEvent, useState } from "react";
import type { Space } from "@/api/models";
import type { NewAgentKey } from "@/api/v5";
import { FailureNotice } from "@/components/feedback";
import { useCreateAgent } from "../api/create-agent";
import { type AgentForm, agentRequest, emptyAgentForm, toggleSpace } from "../lib/agent-key";

/** Makes an agent key: its name, the Spaces it reaches, whether it may write. */
export function AgentKeyForm({
  spaces,
  onCreated,
}: {
  spaces: readonly Space[];
  onCreated: (made: NewAgentKey) => void;
}) {
  const [form, setForm] = useState<AgentForm>(emptyAgentForm);
  const create = useCreateAgent();
  const request = agentRequest(form);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!("body" in request)) return;
    create.mutate(request.body, {
      onSuccess: (made) => {
        setForm(emptyAgentForm);
        onCreated(made);
      },
    });
  };

  return (
    <form className="card agent-form" onSubmit={submit} aria-label="New agent key">
      <label className="field">
        <span>Agent name</span>
        <input
          value={form.name}
          maxLength={100}
          placeholder="e.g. coder, nightly-summariser"
          onChange={(e) => setForm({ ...form, name: e.target.value })}
        />
      </label>
      <fieldset className="agent-reach">
        <legend>Spaces it may reach</legend>
        <label className="check">
          <input
            type="radio"
            name="agent-reach"
            checked={form.every}
            onChange={() => setForm({ ...form, every: true })}
          />
          Every Space (and it may create Spaces)
        </label>
        <label className="check">
          <input
            type="radio"
            name="agent-reach"
            checked={!form.every}
            onChange={() => setForm({ ...form, every: false })}
          />
          Only the Spaces ticked below (others are invisible to it)
        </label>
        <ul className="agent-spaces" aria-label="Spaces the agent may reach">
          {spaces.map((space) => (
            <li key={space.id}>
              <label className="check">
                <input
                  type="checkbox"
                  disabled={form.every}
                  checked={form.every || form.chosen.includes(space.id)}
                  onChange={() => setForm({ ...form, chosen: toggleSpace(form.chosen, space.id) })}
                />
                {space.name}
              </label>
            </li>
          ))}
          {spaces.length === 0 && <li className="muted">No Spaces yet.</li>}
        </ul>
      </fieldset>
      <label className="check">
        <input
          type="checkbox"
          checked={form.write}
          onChange={(e) => setForm({ ...form, write: e.target.checked })}
        />
        May write: save Checkpoints, make lines and Sessions, send messages, open proposals (else it
        only reads)
      </label>
      <div className="agent-form-actions">
        <button
          type="submit"
          className="btn primary"
          disabled={!("body" in request) || create.isPending}
          title={"missing" in request ? request.missing : undefined}
        >
          {create.isPending ? "Making…" : "Make key"}
        </button>
        {"missing" in request && form.name !== "" && (
          <span className="muted small">{request.missing}</span>
        )}
      </div>
      <FailureNotice error={create.error} />
    </form>
  );
}
