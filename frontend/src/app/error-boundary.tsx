import { Component, type ErrorInfo, type ReactNode } from "react";

interface State {
  error: Error | null;
}

/** A last resort: an unexpected error shows a way back instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error("Smriti web app error", error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="page" role="alert">
        <h1>Something went wrong</h1>
        <p className="muted">{this.state.error.message}</p>
        <p>
          Nothing you saved is lost: Spaces, Sessions and Checkpoints live on the server.{" "}
          <a href="/">Reload the app</a>.
        </p>
      </main>
    );
  }
}
