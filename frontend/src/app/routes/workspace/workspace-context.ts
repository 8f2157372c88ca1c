import { createContext, useContext } from "react";
import type { Checkpoint, ContextRequest, Line, Session } from "@/api/models";
import type { PanelState, SetPanel } from "./panel-state";

/** The open Space, for every part of its workspace: its history and the panel's state. */
export interface Workspace {
  spaceId: string;
  checkpoints: Checkpoint[];
  checkpointsLoading: boolean;
  lines: readonly Line[];
  headId: string | null;
  panel: PanelState;
  setPanel: SetPanel;
}

/** What the panel can do with the open Session; there is none on the Space's own page. */
export interface OpenSession {
  /** The Checkpoint the Session is based on (what its every message receives), if any. */
  baseId: string | null;
  /** Mounts a Checkpoint: continues the Session in a new one based on it, and opens that one. */
  mount: (checkpointId: string) => void;
  mounting: boolean;
  /** The provider and model chosen for the Session, which a review also uses. */
  reviewWith: { provider: string | null; model: string | null };
  /** What the Context tab previews, and how it names the Checkpoint in context. */
  context: { request: ContextRequest; label: string | null };
  /** The Session as the server has it: what its next save starts from. */
  session: Session | undefined;
}

const WorkspaceContext = createContext<Workspace | null>(null);
const OpenSessionContext = createContext<OpenSession | null>(null);

export const WorkspaceProvider = WorkspaceContext.Provider;
export const OpenSessionProvider = OpenSessionContext.Provider;

export function useWorkspace(): Workspace {
  const workspace = useContext(WorkspaceContext);
  if (!workspace) throw new Error("useWorkspace needs a WorkspaceProvider (SpaceWorkspace).");
  return workspace;
}

export function useOpenSession(): OpenSession | null {
  return useContext(OpenSessionContext);
}
