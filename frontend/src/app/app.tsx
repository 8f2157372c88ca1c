import { QueryClientProvider } from "@tanstack/react-query";
import { useState } from "react";
import { Link, Route, Switch } from "wouter";
import { LiveEvents } from "@/features/activity";
import { AgentsPage } from "@/features/agents";
import { SpacesPage } from "@/features/spaces";
import { ErrorBoundary } from "./error-boundary";
import { prefetchRoute } from "./prefetch";
import { createQueryClient } from "./query-client";
import { ActivityRoute } from "./routes/activity-route";
import { ProposalRoute } from "./routes/proposal-route";
import { SpaceWorkspace } from "./routes/workspace/space-workspace";
import { TokenGate } from "./token-gate";
import { TopBar } from "./top-bar";

export function App() {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    prefetchRoute(client, window.location.pathname);
    return client;
  });
  return (
    <QueryClientProvider client={queryClient}>
      <ErrorBoundary>
        <div className="app">
          <Switch>
            <Route path="/">
              <TopBar />
              <main className="app-main">
                <SpacesPage />
              </main>
            </Route>
            <Route path="/agents">
              <TopBar />
              <main className="app-main">
                <AgentsPage />
              </main>
            </Route>
            <Route path="/spaces/:spaceId/proposals/:number">
              {(params) => <ProposalRoute spaceId={params.spaceId} number={params.number} />}
            </Route>
            <Route path="/spaces/:spaceId/activity">
              {(params) => <ActivityRoute spaceId={params.spaceId} />}
            </Route>
            <Route path="/spaces/:spaceId/sessions/:sessionId">
              {(params) => <SpaceWorkspace spaceId={params.spaceId} sessionId={params.sessionId} />}
            </Route>
            <Route path="/spaces/:spaceId">
              {(params) => <SpaceWorkspace spaceId={params.spaceId} sessionId={null} />}
            </Route>
            <Route>
              <TopBar />
              <main className="app-main page">
                <h1>Not found</h1>
                <p>
                  Nothing lives at this address. <Link href="/">Back to your Spaces</Link>.
                </p>
              </main>
            </Route>
          </Switch>
        </div>
      </ErrorBoundary>
      <LiveEvents />
      <TokenGate />
    </QueryClientProvider>
  );
}
