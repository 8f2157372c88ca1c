import type { ProviderList } from "@/api/models";
import type { ProviderChoice } from "../lib/choice";

interface ProviderPickerProps {
  providers: ProviderList | undefined;
  choice: ProviderChoice | null;
  onChange: (choice: ProviderChoice) => void;
  disabled?: boolean;
}

/** Provider and model for the next message; unconfigured providers are listed, disabled, with why. */
export function ProviderPicker({
  providers,
  choice,
  onChange,
  disabled = false,
}: ProviderPickerProps) {
  if (!providers || !choice) return <span className="muted small">Loading providers…</span>;
  const current = providers.items.find((p) => p.name === choice.provider);
  const models = current ? [...current.models] : [];
  if (!models.includes(choice.model)) models.unshift(choice.model);
  const unavailable = providers.items.filter((p) => !p.configured);

  return (
    <div className="provider-picker">
      <label className="compact-field">
        <span className="visually-hidden">Provider</span>
        <select
          aria-label="Provider"
          value={choice.provider}
          disabled={disabled}
          title={unavailable
            .map((p) => `${p.label}: ${p.unavailable_reason ?? "not configured"}`)
            .join("\n")}
          onChange={(e) => {
            const next = providers.items.find((p) => p.name === e.target.value);
            if (next) onChange({ provider: next.name, model: next.default_model });
          }}
        >
          {providers.items.map((p) => (
            <option key={p.name} value={p.name} disabled={!p.configured}>
              {p.configured ? p.label : `${p.label} — ${p.unavailable_reason ?? "not configured"}`}
            </option>
          ))}
        </select>
      </label>
      <label className="compact-field">
        <span className="visually-hidden">Model</span>
        <select
          aria-label="Model"
          value={choice.model}
          disabled={disabled}
          onChange={(e) => onChange({ provider: choice.provider, model: e.target.value })}
        >
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
