import type { ReactNode } from "react";
import { ApiError } from "@/api/client";
import { ErrorNotice } from "./dialog";

export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <span className="spinner" role="status">
      <span className="spinner-dot" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <div className="loading">
      <Spinner label={`Loading ${what}`} /> Loading {what}…
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}

/** A human sentence for any error thrown by the API layer. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const named =
      error.provider && error.detail.toLowerCase().includes(error.provider.toLowerCase());
    const who = error.provider && !named ? ` (provider: ${error.provider})` : "";
    const fields = error.errors
      .filter((e) => e.field && !error.detail.includes(e.message))
      .map((e) => `${e.field}: ${e.message}`);
    return [error.detail + who, ...fields].join(" · ");
  }
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}

/** A failed call's error, said in a sentence; nothing while there is none. */
export function FailureNotice({ error, prefix = "" }: { error: unknown; prefix?: string }) {
  if (error == null) return null;
  return <ErrorNotice message={`${prefix}${errorMessage(error)}`} />;
}
