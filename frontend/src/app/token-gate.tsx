import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { setApiToken, useTokenRequired } from "@/api/auth";
import { Dialog } from "@/components/dialog";

/** Asks for the API token when the server requires one (it answered 401). */
export function TokenGate() {
  const required = useTokenRequired();
  const queryClient = useQueryClient();
  const [value, setValue] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApiToken(value);
    setValue("");
    void queryClient.invalidateQueries();
  };

  return (
    <Dialog
      open={required}
      title="This Smriti server needs an access token"
      onClose={() => undefined}
    >
      <form onSubmit={submit} className="token-form">
        <p className="muted">
          The server was started with <code>SMRITI_API_TOKEN</code>. Enter that token; it is kept in
          this browser only.
        </p>
        <label className="field">
          <span>Access token</span>
          <input
            type="password"
            value={value}
            autoComplete="off"
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <div className="dialog-footer">
          <button type="submit" className="btn primary" disabled={!value.trim()}>
            Use this token
          </button>
        </div>
      </form>
    </Dialog>
  );
}
