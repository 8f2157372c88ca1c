/**
 * The domain types the app uses. Most are aliases of the generated OpenAPI types; the few the
 * backend's document does not describe yet are written out here, each with the reason.
 * Wire names follow the backend (repo = Space, commit = Checkpoint); UI text never does.
 */
import type { components } from "./schema";

type Schemas = components["schemas"];

export type Space = Schemas["Space"];
export type SpaceCreate = Schemas["SpaceCreate"];
export type SpaceUpdate = Schemas["SpaceUpdate"];
export type Checkpoint = Schemas["Checkpoint"];
export type CommitCreate = Schemas["CommitCreate"];
export type Artifact = Schemas["Artifact"];
export type Task = Schemas["Task"];
export type Entity = Schemas["Entity"];
export type Turn = Schemas["Turn"];
export type SendRequest = Schemas["SendRequest"];
export type SendResponse = Schemas["SendResponse"];
export type Suggestion = Schemas["Suggestion"];
export type ContextRequest = Schemas["ContextRequest"];
export type ContextPreview = Schemas["ContextPreview"];
export type ContextSection = Schemas["ContextSection"];
export type ProviderInfo = Schemas["ProviderInfo"];
export type ProviderList = Schemas["ProviderList"];
export type SessionCreate = Schemas["SessionCreate"];

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

/**
 * A Session. Written out by hand: the backend's OpenAPI document names SQLAlchemy's `Session`
 * instead of its own schema for listSessions/createSession/getSession (items are `{}`), so the
 * generated types carry no shape. Mirrors backend/src/smriti/sessions/schemas.py.
 */
export interface Session {
  id: string;
  repo_id: string;
  title: string;
  provider: string | null;
  model: string | null;
  /** Also the highest sequence_number: Turns are numbered 1..turn_count with no gaps. */
  turn_count: number;
  created_at: string;
  updated_at: string;
}
