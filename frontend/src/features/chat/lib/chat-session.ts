import { createContext, useContext } from "react";
import type { Checkpoint, ProviderList, Session, Turn } from "@/api/models";
import type { ProviderChoice } from "@/features/providers";
import type { SessionMount } from "./use-session-mount";

/**
 * The open Session as the chat sees it. The app assembles it once (the Session, its Turns, its
 * mount and provider choice come from other features) and provides it; the chat's parts read
 * what they need instead of having it passed down through ChatView.
 */
export interface ChatSession {
  spaceId: string;
  sessionId: string;
  session: Session;
  turns: readonly Turn[] | undefined;
  turnsError: unknown;
  mount: SessionMount;
  /** The Space's Checkpoints, to name the mounted one and to pick one to mount. */
  checkpoints: readonly Checkpoint[];
  headId: string | null;
  providers: ProviderList | undefined;
  choice: ProviderChoice | null;
  setChoice: (choice: ProviderChoice) => void;
  /** Opens the Save checkpoint form, blank or asking the model for a draft. */
  saveCheckpoint: () => void;
  draftCheckpoint: () => void;
}

const ChatSessionContext = createContext<ChatSession | null>(null);

export const ChatSessionProvider = ChatSessionContext.Provider;

export function useChatSession(): ChatSession {
  const session = useContext(ChatSessionContext);
  if (!session) throw new Error("useChatSession needs a ChatSessionProvider around the chat.");
  return session;
}
