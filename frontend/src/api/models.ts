/**
 * The domain types the app uses: aliases of the generated OpenAPI types.
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
export type AnsweredContext = Schemas["AnsweredContext"];
/** Turns in scope that a provider is not sent, and why. */
export type LeftOut = Schemas["LeftOut"];
export type ContextSection = Schemas["ContextSection"];
export type ProviderInfo = Schemas["ProviderInfo"];
export type ProviderList = Schemas["ProviderList"];
export type Session = Schemas["Session"];
export type SessionCreate = Schemas["SessionCreate"];
export type SessionUpdate = Schemas["SessionUpdate"];
/** A line of Checkpoints (wire name: branch). */
export type Line = Schemas["Line"];
export type LineCreate = Schemas["LineCreate"];
export type LineUpdate = Schemas["LineUpdate"];
export type ForkRequest = Schemas["ForkRequest"];
export type RestoreRequest = Schemas["RestoreRequest"];
export type SpaceEvent = Schemas["Event"];
export type EventPage = Schemas["EventPage"];
