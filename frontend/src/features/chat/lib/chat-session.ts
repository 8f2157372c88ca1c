import { createContext, useContext } from "react";
import type { Checkpoint, ProviderList, Session, Turn } from "@/api/models";
import type { ProviderChoice } from "@/features/providers";

/** A Checkpoint just saved from the open Session, and the line it went to. */
export interface JustSaved {
  checkpoint: Checkpoint;
  line: string | null;
}

/**
 * The open Session as the chat sees it. The app assembles it once (the Session, its Turns, its
 * provider choice come from other features) and provides it; the chat's parts read what they
 * need instead of having it passed down through ChatView. What the next message receives is the
 * server's (`session.base_commit_id` plus every Turn): nothing of it is kept in the browser.
 */
export interface ChatSession {
  spaceId: string;
  sessionId: string;
  session: Session;
  turns: readonly Turn[] | undefined;
  turnsError: unknown;
  /** Mounts a Checkpoint: continues this Session in a new one based on it, and opens that one. */
  mount: (checkpointId: string) => void;
  mounting: boolean;
  mountError: unknown;
  /** The Space's Checkpoints, to name the base and to pick one to mount. */
  checkpoints: readonly Checkpoint[];
  headId: string | null;
  providers: ProviderList | undefined;
  choice: ProviderChoice | null;
  setChoice: (choice: ProviderChoice) => void;
  /** Opens the Save checkpoint form, blank or asking the model for a draft. */
  saveCheckpoint: () => void;
  draftCheckpoint: () => void;
  /** Offered once after a save: continue from what was saved, in a new Session. */
  justSaved: JustSaved | null;
  dismissSaved: () => void;
  /** After the Session was deleted here: leave it. */
  onDeleted: () => void;
}

const ChatSessionContext = createContext<ChatSession | null>(null);

export const ChatSessionProvider = ChatSessionContext.Provider;

export function useChatSession(): ChatSession {
  const session = useContext(ChatSessionContext);
  if (!session) throw new Error("useChatSession needs a ChatSessionProvider around the chat.");
  return session;
}
