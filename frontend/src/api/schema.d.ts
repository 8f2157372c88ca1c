// Generated from the backend's OpenAPI document by scripts/openapi-types.mjs.
// Do not edit: run `npm run types` (or `make types`).

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and database reachability */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transcripts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Legacy: parse a pasted transcript into Turns and a text context pack
         * @description Kept for backfilling. With `repo_id` the Turns are also stored as a new Session of that Space (numbered 1..n); `session_id` is null otherwise.
         */
        post: operations["ingestTranscript"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/chat/commit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save a Checkpoint and move HEAD to it
         * @description The parent defaults to HEAD. With `expected_head_commit_id` the commit is a compare-and-swap: 409 and nothing written when HEAD is not that Checkpoint.
         */
        post: operations["commitCheckpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/chat/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exactly what the provider would receive next, with token estimates */
        post: operations["previewContext"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/chat/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a message in a Session and store the exchange
         * @description With `checkpoint_id` (a mounted Checkpoint), `history_base_seq` is required and the provider receives the Checkpoint's state plus only the Turns after the boundary. Both Turns are stored together after the provider answered; on a provider failure nothing is stored. A repeated `request_id` returns the stored pair. With `Accept: text/event-stream` the reply streams as Server-Sent Events (`context`, `delta`..., then `done` with this body, or `error`); refusals still answer as JSON before the stream. See docs/api.md.
         */
        post: operations["sendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/commits/{ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One Checkpoint by id, full hash, or a unique hash prefix (≥ 7 hex digits) */
        get: operations["getCheckpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Providers, whether configured, their models
         * @description `models`: the configured default first, then the configured models, then the ones the provider lists itself (`GET /v1/models`, asked at most every 10 minutes); `listed` says whether it did.
         */
        get: operations["listProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/repos": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List Spaces, most recently changed first */
        get: operations["listSpaces"];
        put?: never;
        /** Create a Space */
        post: operations["createSpace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/repos/{repo_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a Space */
        get: operations["getSpace"];
        put?: never;
        post?: never;
        /**
         * Delete a Space with its Sessions, Turns and Checkpoints
         * @description The person only: an agent key gets 403 (deleting a Space drops every line the person protected, with all its state).
         */
        delete: operations["deleteSpace"];
        options?: never;
        head?: never;
        /** Rename or describe a Space */
        patch: operations["updateSpace"];
        trace?: never;
    };
    "/v4/repos/{repo_id}/branches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The Space's lines, the default line first, then by name */
        get: operations["listLines"];
        put?: never;
        /**
         * Start a line at a Checkpoint of this Space
         * @description `from_ref` is a Checkpoint id, full hash or unique prefix (≥ 7 hex digits) of this Space; without it the line starts at the Space's HEAD. Names are trimmed, 1–100 characters, unique in the Space compared whatever their case, Unicode form or spacing (`café` composed or decomposed is one name), and not shaped like a Checkpoint ref (7-64 hex digits, or an id). No Checkpoint is written.
         */
        post: operations["createLine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/repos/{repo_id}/branches/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One line of the Space */
        get: operations["getLine"];
        put?: never;
        post?: never;
        /**
         * Delete a line; its Checkpoints stay
         * @description The default line cannot be deleted (409); an agent cannot delete a protected line (403).
         */
        delete: operations["deleteLine"];
        options?: never;
        head?: never;
        /**
         * Rename a line, make it the Space's default line, or protect it
         * @description Making a line the default makes its HEAD the Space's HEAD. No Checkpoint is written. Only the person sets `protected` (an agent key: 403); an agent can neither change a protected line nor make another line the default in its place (403 naming `branch`).
         */
        patch: operations["updateLine"];
        trace?: never;
    };
    "/v4/repos/{repo_id}/commits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The Space's Checkpoints, newest first, or a line's history
         * @description Each carries `parent_commit_id`, so a client can draw the tree. With `branch`, that line's history: first parents from its HEAD, newest first.
         */
        get: operations["listCheckpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/repos/{repo_id}/head": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The Space's HEAD Checkpoint, or a line's
         * @description The Space's HEAD is its default line's. With `branch`, that line's HEAD. 404 when the Space or the line does not exist or has no Checkpoint yet.
         */
        get: operations["getHead"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/repos/{repo_id}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sessions of a Space, newest first
         * @description Each with its lineage: `forked_from` (and whether that Session was deleted since), `continued_in` and `continued_count`, and `last_saved`. `q` keeps the Sessions whose title contains it, ignoring case; `forked_from` keeps those continued from one Session.
         */
        get: operations["listSessions"];
        put?: never;
        /**
         * Start a Session in a Space
         * @description With `base_commit_id` (a Checkpoint of this Space), every message sent in the Session gets that Checkpoint's state plus the Session's own Turns: the boundary is the Session itself. Without a `title`, the Session takes one from its first message when that exchange is stored (its first words, at most 6 words and 60 characters); a title given here or by a rename is never replaced.
         */
        post: operations["createSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/repos/{repo_id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recompute every Checkpoint hash and parent link of a Space
         * @description Also compares the Space's record (its Checkpoint count, HEAD and its copy of HEAD's hash) with the Checkpoints, and checks that each `anchor` (a full hash you kept elsewhere) is still the hash of a Checkpoint of this Space. Someone who can write the database can recompute every hash consistently; only an anchor kept outside it shows that.
         */
        get: operations["verifySpace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One Session, and what its next message and its next save start from
         * @description What the next message sent in it receives: its base Checkpoint (`base_commit_id`, if any) plus all of its Turns. A save from it starts from `last_saved`, the Checkpoint saved from it last (the newest whose `metadata.source.session_id` is this Session), on the line it went to (`branch`). `forked_from` and `continued_in` link it to the Sessions it came from and went on in.
         */
        get: operations["getSession"];
        put?: never;
        post?: never;
        /**
         * Delete a Session with its Turns
         * @description Its Turns go with it; no Checkpoint is touched (one saved from it keeps naming it in `metadata.source`, as history). A Session forked from it keeps working, and its `forked_from` says `deleted: true`. A message being answered in it when it is deleted is not stored (404).
         */
        delete: operations["deleteSession"];
        options?: never;
        head?: never;
        /** Rename a Session */
        patch: operations["updateSession"];
        trace?: never;
    };
    "/v4/sessions/{session_id}/turns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A Session's Turns in sequence_number order
         * @description `after_seq` returns only Turns with a higher sequence_number (keyset paging).
         */
        get: operations["listTurns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v4/sessions/{session_id}/turns/{sequence_number}/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The context a reply was answered from, rebuilt, with its receipt
         * @description Rebuilds exactly what the provider was sent for reply `sequence_number` (an assistant Turn) from the Checkpoint and Turns it was sent with, and hashes it as the send did: `matches` says whether the hash is the reply's recorded `context_sha256`.
         */
        get: operations["getAnsweredContext"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/agents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The agent keys, newest first (never the keys themselves) */
        get: operations["listAgents"];
        put?: never;
        /**
         * Make an agent key
         * @description `spaces`: the Spaces the agent may reach (others answer 404 to it, as if absent); null: every Space, and it may create Spaces. `write: false` makes a key that only reads. `token` is in this answer only: the server keeps its SHA-256.
         */
        post: operations["createAgent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/agents/{agent_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an agent key
         * @description Within a second every request with it, on any server process, is a 401. What the agent made still names it. Revoking a revoked key changes nothing.
         */
        delete: operations["revokeAgent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/checkpoints/apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save a Checkpoint made of its parent's state plus these changes
         * @description The parent is `parent_commit_id`, else the line's HEAD (`branch`, default: the default line); a Space with no Checkpoint starts empty. `set` replaces the summary; `add` appends items (an entity or artifact whose name exists replaces it in place); `remove` and `complete_tasks` name items by text (entities and artifacts by name). Naming an item the parent does not have, or adding a text the list already has, is a 400 naming the entry. `metadata` is merged over the parent's. Same compare-and-swap rules as a commit; without `expected_head_commit_id` or `parent_commit_id`, the changes are applied to the line's latest HEAD.
         */
        post: operations["applyChanges"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/checkpoints/draft": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Draft a Checkpoint from the Turns in scope (nothing is saved)
         * @description Only the Turns of the Session above `history_base_seq` are sent to the provider — never an earlier Checkpoint. The draft carries `source` and `drafted_by` for the Checkpoint's metadata.
         */
        post: operations["draftCheckpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/commits/{commit_id}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Review a Checkpoint for contradictions, hidden assumptions, answered questions, loose entities
         * @description On demand only. Deterministic checks always run; a configured model adds what rules cannot see.
         */
        post: operations["reviewCheckpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/commits/{from_ref}/diff/{to_ref}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed between two Checkpoints of one Space, per field
         * @description Refs are ids, full hashes or unique hash prefixes. Checkpoints of two Spaces → 400.
         */
        get: operations["diffCheckpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/commits/{ref}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Save a Checkpoint equal to an older one, on top of a line's HEAD
         * @description The new Checkpoint's content equals `ref`'s, with `metadata.restored_from` added; its parent is the line's HEAD (`branch`, default: the default line). Nothing is edited or removed.
         */
        post: operations["restoreCheckpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every change to the Spaces the caller can read, oldest first (or as a live stream)
         * @description Oldest first, `limit` at a time (1 to 500, default 100); `next_after` is the next page's `after`. Without `after`, from the oldest event kept. With `Accept: text/event-stream`, a live stream of Server-Sent Events (`id:` the event id, `event:` its type, `data:` the event): it starts after `Last-Event-ID` (or `after`), replays what followed, then sends each new event within a second, whichever server process wrote it; without either, at the next new event; a comment every 15 s. An `after` some of whose following events are past their retention (SMRITI_EVENT_RETENTION_DAYS) is a 410 naming it; one past the newest event ever given is a 400. A page (not a stream) can be newest first: `order=newest`, then `before` (the previous page's `next_before`) for older ones; and hold only some types (`type`, repeatable) or one actor (`actor`: `human`, or an agent key's id). A process holds at most SMRITI_MAX_EVENT_STREAMS streams, an agent key a tenth of them: past it, a 503. See docs/api.md. An agent key sees the events of its Spaces only.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the server takes the caller to be */
        get: operations["getMe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every change to one Space, oldest first (or as a live stream)
         * @description Oldest first, `limit` at a time (1 to 500, default 100); `next_after` is the next page's `after`. Without `after`, from the oldest event kept. With `Accept: text/event-stream`, a live stream of Server-Sent Events (`id:` the event id, `event:` its type, `data:` the event): it starts after `Last-Event-ID` (or `after`), replays what followed, then sends each new event within a second, whichever server process wrote it; without either, at the next new event; a comment every 15 s. An `after` some of whose following events are past their retention (SMRITI_EVENT_RETENTION_DAYS) is a 410 naming it; one past the newest event ever given is a 400. A page (not a stream) can be newest first: `order=newest`, then `before` (the previous page's `next_before`) for older ones; and hold only some types (`type`, repeatable) or one actor (`actor`: `human`, or an agent key's id). A process holds at most SMRITI_MAX_EVENT_STREAMS streams, an agent key a tenth of them: past it, a 503. See docs/api.md.
         */
        get: operations["listSpaceEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export a Space as a bundle: its Checkpoints, lines, Sessions and Turns, one JSON object a line
         * @description Streamed `application/x-ndjson` in the format of docs/bundles.md (`smriti-space`, version 1), read from one snapshot. `POST /v5/repos/import` brings it back with the same ids and hashes.
         */
        get: operations["exportSpace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/import/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a ChatGPT, Claude, Open WebUI or Claude Code export's conversations as Sessions
         * @description The body is the `conversations.json` of a ChatGPT or Claude data export, or the ZIP the export downloads as, an Open WebUI chat export, or a Claude Code session's JSONL transcript, up to SMRITI_MAX_IMPORT_BYTES; the kind is told by the content, whatever the Content-Type (JSON, `application/zip` or `application/x-ndjson`). One Session per conversation, in the file's order, titles kept, Turns numbered 1..n: what the user and the assistant said, in the order they said it (the branch last seen; messages in time order). Reasoning, tool calls and hidden messages are left out, and each Session's `left_out` counts them. A conversation this Space already holds (imported before: known by its own id) is skipped, naming its Session, unless `copies=true`. A conversation that cannot be read is listed in `skipped` with its reason; the rest are stored in one transaction. A file that is not such an export is a 400 and stores nothing; one conversation larger than SMRITI_MAX_BUNDLE_LINE_BYTES is a 413 naming it.
         */
        post: operations["importConversations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Merge theirs into ours, three-way, without saving anything
         * @description Against the nearest common ancestor over both parent links. Items are keyed by text (tasks by text, entities and artifacts by name): a change made on one side only is taken, the same change on both sides once; an item changed differently on both sides, or removed on one and changed on the other, and a summary changed differently on both, are conflicts, for which `merged` keeps ours. Save the resolved state with `POST /v4/chat/commit` and `merge_parent_id` = `theirs_commit_id` (docs/merge.md).
         */
        get: operations["previewMerge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/merge/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Review a merge's resolved state before saving it
         * @description `merged` is the state about to be saved as the merge of `theirs` into `ours` (as in the preview). It is reviewed like a Checkpoint (on demand, rules and, with a model-backed provider, the model); a finding whose items no single line had is marked `from_merge`. Nothing is saved.
         */
        post: operations["reviewMerge"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/proposals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The Space's proposals, newest first */
        get: operations["listProposals"];
        put?: never;
        /**
         * Propose merging one line into another
         * @description `into` defaults to the Space's default line; `from` and `into` are two lines of this Space (404 naming the one it lacks; one line twice: 400 naming `into`). One proposal per pair of lines is open at a time (409). An agent or the person opens one; a read-only key cannot. `number` counts from 1 in each Space. The answer has the merge preview of the lines' HEADs, as `GET` does.
         */
        post: operations["openProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/proposals/{number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A proposal, with the merge of its lines' HEADs as they are now
         * @description `preview` is `GET …/merge?ours=<into>&theirs=<from>` of the lines' current HEADs: a `from` that moved since the proposal was opened is shown as it is now. A deleted line is null in `from` or `into` (`from_deleted`, `into_deleted`), its name kept in `from_name` or `into_name`.
         */
        get: operations["getProposal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/proposals/{number}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a proposal without merging it
         * @description The person, or the agent that opened it (others: 403). A proposal that is not open: 409.
         */
        post: operations["closeProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/{repo_id}/proposals/{number}/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Merge a proposal (the person only)
         * @description Makes the merge Checkpoint on `into` (first parent: `into`'s HEAD; `merge_parent_id`: `from`'s HEAD) and marks the proposal merged, in one transaction. Without conflicts no body is needed; with conflicts `merged`, the resolved whole state, is required (400 naming `merged`). An expected HEAD that is not the line's, a deleted line, nothing to merge, or a proposal that is not open: 409, nothing written. Agents: 403.
         */
        post: operations["mergeProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/repos/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a Space from a bundle
         * @description The body is a bundle (`Content-Type: application/x-ndjson`, up to SMRITI_MAX_IMPORT_BYTES). Every hash and link is checked before anything is written, then all of it is written in one transaction: a bundle that does not check out is a 400 naming its first bad line and writes nothing; a line longer than SMRITI_MAX_BUNDLE_LINE_BYTES is a 413 naming it. The Space keeps its ids, hashes and times; a Space with its id or name already here is a 409.
         */
        post: operations["importSpace"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find Checkpoints and Turns by their words, best first
         * @description Full-text search over every Checkpoint (message, summary, each list item, entities, artifacts' names and content) and Turn, or one Space's (`repo_id`) or one kind's (`kind`). Each hit names where it matched (`field`) and carries a plain-text `snippet` with the `[start, end)` offsets of the matched words. `total` is exact up to 10,000 matches of a kind; past that it says `total_is_exact: false` and the hits are the best of the first 10,000 found.
         */
        get: operations["search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/sessions/{session_id}/fork": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Continue from a Checkpoint in a new Session
         * @description A new Session of the same Space whose base is `checkpoint_id` (a Checkpoint of that Space), with `forked_from` naming this Session and its last Turn. No Turn is copied.
         */
        post: operations["forkSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The webhooks, newest first (never their secrets)
         * @description `active` false: disabled, and `disabled_reason` says why (retries ran out, or the receiver answered 410).
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Send every matching event to a URL
         * @description `repo_id`: only that Space's events (null: every Space's); `types`: only those event types (null: all). Each event from now on is POSTed as JSON, signed as Standard Webhooks says, at least once and in order. `url` is http(s), without credentials, and must not resolve to a loopback, private, link-local or reserved address (unless the server allows it). `secret` is in this answer only.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description Nothing more is sent to it (an attempt already under way may still arrive).
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v5/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook's latest 100 delivery attempts, newest first */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** Actor */
        Actor: {
            id?: string | null;
            /** @enum {string} */
            kind: "human" | "agent";
            name: string;
        };
        /** AgentCreate */
        AgentCreate: {
            name: string;
            spaces: string[] | null;
            /** @description Default: true. */
            write?: boolean;
        };
        /** AgentKey */
        AgentKey: {
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            last_used_at: string | null;
            name: string;
            revoked_at: string | null;
            spaces: string[] | null;
            write: boolean;
        };
        /** AgentKeyPage */
        AgentKeyPage: {
            items: components["schemas"]["AgentKey"][];
            limit: number;
            offset: number;
            total: number;
        };
        /** AnsweredContext */
        AnsweredContext: {
            checkpoint_id: string | null;
            context_sha256: string;
            history_base_seq: number | null;
            left_out?: components["schemas"]["LeftOut"] | null;
            matches: boolean | null;
            messages: components["schemas"]["ContextMessage"][];
            model: string | null;
            provider: string | null;
            recorded_sha256: string | null;
            sequence_number: number;
            /** Format: uuid */
            session_id: string;
            system: string | null;
        };
        /** ApplyRequest */
        ApplyRequest: {
            add?: components["schemas"]["ItemAdditions"];
            branch?: string | null;
            complete_tasks?: string[];
            expected_head_commit_id?: string | null;
            merge_parent_id?: string | null;
            message: string;
            metadata?: {
                [key: string]: unknown;
            };
            parent_commit_id?: string | null;
            remove?: components["schemas"]["ItemRemovals"];
            /** Format: uuid */
            repo_id: string;
            set?: components["schemas"]["SetFields"];
        };
        /** Artifact */
        Artifact: {
            content: string;
            /** @default text/plain */
            media_type?: string;
            name: string;
        };
        /** ArtifactChange */
        ArtifactChange: {
            added: components["schemas"]["ArtifactInfo"][];
            changed: components["schemas"]["ArtifactEdit"][];
            removed: components["schemas"]["ArtifactInfo"][];
        };
        /** ArtifactEdit */
        ArtifactEdit: {
            after_size: number;
            before_size: number;
            media_type_changed: boolean;
            name: string;
        };
        /** ArtifactInfo */
        ArtifactInfo: {
            media_type: string;
            name: string;
            size: number;
        };
        /** Author */
        Author: {
            id?: string | null;
            kind: string;
            name?: string | null;
        };
        /** Checkpoint */
        Checkpoint: {
            artifacts: components["schemas"]["Artifact"][];
            assumptions: string[];
            commit_hash: string;
            /** Format: date-time */
            created_at: string;
            decisions: string[];
            entities: components["schemas"]["Entity"][];
            /** Format: uuid */
            id: string;
            merge_parent_id: string | null;
            message: string;
            metadata: {
                [key: string]: unknown;
            };
            open_questions: string[];
            parent_commit_id: string | null;
            /** Format: uuid */
            repo_id: string;
            summary: string;
            tasks: components["schemas"]["Task"][];
        };
        /** CheckpointDiff */
        CheckpointDiff: {
            artifacts: components["schemas"]["ArtifactChange"];
            assumptions: components["schemas"]["ListChange"];
            decisions: components["schemas"]["ListChange"];
            entities: components["schemas"]["EntityChange"];
            /** Format: uuid */
            from_commit_id: string;
            identical: boolean;
            message: components["schemas"]["TextChange"];
            metadata_changed: boolean;
            open_questions: components["schemas"]["ListChange"];
            summary: components["schemas"]["TextChange"];
            tasks: components["schemas"]["TaskChange"];
            /** Format: uuid */
            to_commit_id: string;
        };
        /** CheckpointDraft */
        CheckpointDraft: {
            assumptions: string[];
            decisions: string[];
            drafted_by: components["schemas"]["DraftedBy"];
            entities: components["schemas"]["Entity"][];
            message: string;
            open_questions: string[];
            source: components["schemas"]["DraftSource"];
            summary: string;
            tasks: components["schemas"]["Task"][];
        };
        /** CheckpointPage */
        CheckpointPage: {
            items: components["schemas"]["Checkpoint"][];
            limit: number;
            offset: number;
            total: number;
        };
        /** CommitCreate */
        CommitCreate: {
            artifacts?: components["schemas"]["Artifact"][];
            assumptions?: string[];
            branch?: string | null;
            decisions?: string[];
            entities?: components["schemas"]["Entity"][];
            expected_head_commit_id?: string | null;
            merge_parent_id?: string | null;
            message: string;
            metadata?: {
                [key: string]: unknown;
            };
            open_questions?: string[];
            parent_commit_id?: string | null;
            /** Format: uuid */
            repo_id: string;
            /** @description Default: "". */
            summary?: string;
            tasks?: components["schemas"]["Task"][];
        };
        /** ConflictingItem */
        ConflictingItem: {
            base: string | {
                [key: string]: unknown;
            } | null;
            field: string;
            key: string | null;
            occurrence: number;
            ours: string | {
                [key: string]: unknown;
            } | null;
            theirs: string | {
                [key: string]: unknown;
            } | null;
        };
        /** ContextMessage */
        ContextMessage: {
            content: string;
            /** @enum {string} */
            role: "user" | "assistant";
            sequence_number: number | null;
        };
        /** ContextPreview */
        ContextPreview: {
            /** @enum {null|string} */
            checkpoint_from: "mount" | "base" | null;
            checkpoint_id: string | null;
            /** @default  */
            context_sha256?: string;
            context_window?: number | null;
            history_base_seq: number | null;
            left_out?: components["schemas"]["LeftOut"] | null;
            messages: components["schemas"]["ContextMessage"][];
            model: string;
            provider: string;
            sections: components["schemas"]["ContextSection"][];
            /** Format: uuid */
            session_id: string;
            system: string | null;
            /** @default about 4 characters per token */
            token_estimate?: string;
            tokenizer?: string | null;
            total_tokens: number;
        };
        /** ContextRequest */
        ContextRequest: {
            checkpoint_id?: string | null;
            content?: string | null;
            history_base_seq?: number | null;
            model?: string | null;
            provider?: string | null;
            /** Format: uuid */
            session_id: string;
        } & (unknown & unknown);
        /** ContextSection */
        ContextSection: {
            items: number;
            name: string;
            /** @enum {string} */
            part: "system" | "history";
            tokens: number;
        };
        /** Continuation */
        Continuation: {
            base_commit_hash: string | null;
            base_commit_id: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            session_id: string;
            title: string;
        };
        /** ConversationImportResult */
        ConversationImportResult: {
            /** @enum {string} */
            format: "chatgpt" | "claude" | "claude_code" | "open_webui";
            sessions: components["schemas"]["ImportedConversation"][];
            skipped: components["schemas"]["SkippedConversation"][];
        };
        /** ConversationLeftOut */
        ConversationLeftOut: {
            attachments: number;
            branches: number;
            hidden: number;
            images: number;
            thinking: number;
            tool_calls: number;
        };
        /** Deliveries */
        Deliveries: {
            items: components["schemas"]["Delivery"][];
        };
        /** Delivery */
        Delivery: {
            /** Format: date-time */
            at: string;
            attempt: number;
            error: string | null;
            event_id: number;
            status_code: number | null;
        };
        /** DraftedBy */
        DraftedBy: {
            model: string;
            provider: string;
        };
        /** DraftRequest */
        DraftRequest: {
            history_base_seq?: number | null;
            model?: string | null;
            provider?: string | null;
            /** Format: uuid */
            session_id: string;
        };
        /** DraftSource */
        DraftSource: {
            from_seq: number;
            /** Format: uuid */
            session_id: string;
            to_seq: number;
        };
        /** EarlierHit */
        EarlierHit: {
            commit_hash: string;
            /** Format: uuid */
            commit_id: string;
            field: string;
        };
        /** Entity */
        Entity: {
            description?: string | null;
            kind?: string | null;
            name: string;
        };
        /** EntityChange */
        EntityChange: {
            added: components["schemas"]["Entity"][];
            changed: components["schemas"]["EntityEdit"][];
            removed: components["schemas"]["Entity"][];
        };
        /** EntityEdit */
        EntityEdit: {
            after: components["schemas"]["Entity"];
            before: components["schemas"]["Entity"];
            name: string;
        };
        /** ErrorResponse */
        ErrorResponse: {
            detail: string;
            errors?: components["schemas"]["FieldError"][];
            limit_bytes?: number | null;
            provider?: string | null;
            status: number;
            title: string;
            type: string;
        };
        /** Event */
        Event: {
            actor: components["schemas"]["Actor"];
            /** Format: date-time */
            at: string;
            data: {
                [key: string]: unknown;
            };
            id: number;
            /** Format: uuid */
            repo_id: string;
            type: string;
        };
        /** EventPage */
        EventPage: {
            items: components["schemas"]["Event"][];
            next_after: number;
            next_before: number | null;
        };
        /** FieldError */
        FieldError: {
            field: string;
            message: string;
            /** @default body */
            source?: string;
        };
        /** Finding */
        Finding: {
            detail: string;
            /** @enum {string} */
            kind: "contradiction" | "hidden_assumption" | "resolved_question" | "disconnected_entity";
            refs: components["schemas"]["ItemRef"][];
            /** @enum {null|string} */
            rival?: "negation" | "ruled_out" | "same_slot" | null;
            /** @enum {string} */
            source: "rules" | "model";
        };
        /** ForkedFrom */
        ForkedFrom: {
            deleted: boolean;
            sequence_number: number;
            /** Format: uuid */
            session_id: string;
        };
        /** ForkRequest */
        ForkRequest: {
            /** Format: uuid */
            checkpoint_id: string;
            title?: string | null;
        };
        /** Health */
        Health: {
            database: string;
            status: string;
        };
        /** ImportedConversation */
        ImportedConversation: {
            left_out: components["schemas"]["ConversationLeftOut"];
            /** Format: uuid */
            session_id: string;
            title: string;
            turns: number;
        };
        /** ImportedTurn */
        ImportedTurn: {
            content: string;
            /** @enum {string} */
            role: "user" | "assistant";
        };
        /** ItemAdditions */
        ItemAdditions: {
            artifacts?: components["schemas"]["Artifact"][];
            assumptions?: string[];
            decisions?: string[];
            entities?: components["schemas"]["Entity"][];
            open_questions?: string[];
            tasks?: components["schemas"]["Task"][];
        };
        /** ItemRef */
        ItemRef: {
            /** @enum {string} */
            field: "decisions" | "assumptions" | "tasks" | "open_questions" | "entities";
            index: number;
        };
        /** ItemRemovals */
        ItemRemovals: {
            artifacts?: string[];
            assumptions?: string[];
            decisions?: string[];
            entities?: string[];
            open_questions?: string[];
            tasks?: string[];
        };
        /** LastSaved */
        LastSaved: {
            branch: string | null;
            commit_hash: string;
            /** Format: uuid */
            commit_id: string;
        };
        /** LeftOut */
        LeftOut: {
            reason: string;
            sequence_numbers: number[];
        };
        /** Line */
        Line: {
            /** Format: date-time */
            created_at: string;
            created_by: components["schemas"]["Author"] | null;
            head_commit_hash: string | null;
            head_commit_id: string | null;
            is_default: boolean;
            name: string;
            protected: boolean;
            /** Format: date-time */
            updated_at: string;
        };
        /** LineCreate */
        LineCreate: {
            from_ref?: string | null;
            /** @description 1–100 characters once the spaces around it are trimmed. */
            name: string;
        };
        /** LinePage */
        LinePage: {
            items: components["schemas"]["Line"][];
            limit: number;
            offset: number;
            total: number;
        };
        /** LineUpdate */
        LineUpdate: {
            is_default?: boolean;
            /** @description 1–100 characters once the spaces around it are trimmed. */
            name?: string;
            protected?: boolean;
        };
        /** ListChange */
        ListChange: {
            added: string[];
            removed: string[];
        };
        /** Me */
        Me: {
            id?: string | null;
            kind: string;
            name?: string | null;
            spaces?: string[] | null;
            write: boolean;
        };
        /** MergeFinding */
        MergeFinding: {
            detail: string;
            from_merge: boolean;
            /** @enum {string} */
            kind: "contradiction" | "hidden_assumption" | "resolved_question" | "disconnected_entity";
            refs: components["schemas"]["ItemRef"][];
            /** @enum {null|string} */
            rival?: "negation" | "ruled_out" | "same_slot" | null;
            /** @enum {string} */
            source: "rules" | "model";
        };
        /** MergePreview */
        MergePreview: {
            base_candidates: string[];
            base_commit_id: string | null;
            clean: boolean;
            conflicts: components["schemas"]["ConflictingItem"][];
            limits?: string[];
            merged: components["schemas"]["MergeState"];
            /** Format: uuid */
            ours_commit_id: string;
            /** @enum {string} */
            relation: "diverged" | "up_to_date" | "fast_forward";
            rivals: components["schemas"]["RivalChoice"][];
            /** Format: uuid */
            theirs_commit_id: string;
        };
        /** MergeReview */
        MergeReview: {
            base_commit_id: string | null;
            findings: components["schemas"]["MergeFinding"][];
            limits?: string[];
            /** Format: uuid */
            ours_commit_id: string;
            reviewed_by: components["schemas"]["ReviewedBy"];
            /** Format: uuid */
            theirs_commit_id: string;
        };
        /** MergeReviewRequest */
        MergeReviewRequest: {
            merged: components["schemas"]["MergeState"];
            model?: string | null;
            ours: string;
            provider?: string | null;
            theirs: string;
        };
        /** MergeState */
        MergeState: {
            artifacts?: components["schemas"]["Artifact"][];
            assumptions?: string[];
            decisions?: string[];
            entities?: components["schemas"]["Entity"][];
            open_questions?: string[];
            /** @default  */
            summary?: string;
            tasks?: components["schemas"]["Task"][];
        };
        /** NewAgentKey */
        NewAgentKey: {
            /** Format: date-time */
            created_at: string;
            /** Format: uuid */
            id: string;
            last_used_at: string | null;
            name: string;
            revoked_at: string | null;
            spaces: string[] | null;
            token: string;
            write: boolean;
        };
        /** NewWebhook */
        NewWebhook: {
            active: boolean;
            /** Format: uuid */
            id: string;
            repo_id: string | null;
            secret: string;
            types: string[] | null;
            url: string;
        };
        /** Proposal */
        Proposal: {
            closed_reason: string | null;
            /** Format: date-time */
            created_at: string;
            created_by: components["schemas"]["Author"] | null;
            description: string;
            from: string | null;
            from_deleted: boolean;
            from_name: string;
            /** Format: uuid */
            id: string;
            into: string | null;
            into_deleted: boolean;
            into_name: string;
            merge_commit_id: string | null;
            number: number;
            /** Format: uuid */
            repo_id: string;
            /** @enum {string} */
            status: "open" | "merged" | "closed";
            title: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** ProposalClose */
        ProposalClose: {
            reason?: string | null;
        };
        /** ProposalCreate */
        ProposalCreate: {
            /** @description Default: "". */
            description?: string;
            from: string;
            into?: string | null;
            title: string;
        };
        /** ProposalDetail */
        ProposalDetail: {
            closed_reason: string | null;
            conflicts: components["schemas"]["ConflictingItem"][];
            /** Format: date-time */
            created_at: string;
            created_by: components["schemas"]["Author"] | null;
            description: string;
            from: string | null;
            from_deleted: boolean;
            from_head_commit_id: string | null;
            from_name: string;
            /** Format: uuid */
            id: string;
            into: string | null;
            into_deleted: boolean;
            into_head_commit_id: string | null;
            into_name: string;
            merge_commit_id: string | null;
            number: number;
            preview: components["schemas"]["MergePreview"] | null;
            /** @enum {null|string} */
            relation: "diverged" | "up_to_date" | "fast_forward" | null;
            /** Format: uuid */
            repo_id: string;
            /** @enum {string} */
            status: "open" | "merged" | "closed";
            title: string;
            /** Format: date-time */
            updated_at: string;
        };
        /** ProposalMerge */
        ProposalMerge: {
            expected_from_head_commit_id?: string | null;
            expected_into_head_commit_id?: string | null;
            merged?: components["schemas"]["MergeState"] | null;
            message?: string | null;
        };
        /** ProposalPage */
        ProposalPage: {
            items: components["schemas"]["Proposal"][];
            limit: number;
            offset: number;
            total: number;
        };
        /** ProviderInfo */
        ProviderInfo: {
            configured: boolean;
            context_windows: {
                [key: string]: number;
            };
            default: boolean;
            default_model: string;
            label: string;
            /** @default false */
            listed?: boolean;
            models: string[];
            name: string;
            unavailable_reason: string | null;
        };
        /** ProviderList */
        ProviderList: {
            default_provider: string;
            items: components["schemas"]["ProviderInfo"][];
        };
        /** RestoreRequest */
        RestoreRequest: {
            branch?: string | null;
            expected_head_commit_id?: string | null;
            message?: string | null;
        };
        /** ReviewedBy */
        ReviewedBy: {
            model: string;
            provider: string;
        };
        /** ReviewRequest */
        ReviewRequest: {
            model?: string | null;
            provider?: string | null;
        };
        /** ReviewResult */
        ReviewResult: {
            /** Format: uuid */
            commit_id: string;
            findings: components["schemas"]["Finding"][];
            limits?: string[];
            reviewed_by: components["schemas"]["ReviewedBy"];
        };
        /** RivalChoice */
        RivalChoice: {
            detail: string;
            /** @enum {string} */
            kind: "negation" | "ruled_out" | "same_slot";
            refs: components["schemas"]["ItemRef"][];
        };
        /** SearchHit */
        SearchHit: {
            commit_hash: string | null;
            commit_id: string | null;
            earlier: components["schemas"]["EarlierHit"][];
            field: string;
            highlights: [
                number,
                number
            ][];
            /** @enum {string} */
            kind: "checkpoint" | "turn";
            rank: number;
            /** Format: uuid */
            repo_id: string;
            sequence_number: number | null;
            session_id: string | null;
            session_title: string | null;
            snippet: string;
        };
        /** SearchPage */
        SearchPage: {
            items: components["schemas"]["SearchHit"][];
            limit: number;
            offset: number;
            total: number;
            total_is_exact: boolean;
        };
        /** SendRequest */
        SendRequest: {
            checkpoint_id?: string | null;
            content: string;
            history_base_seq?: number | null;
            model?: string | null;
            provider?: string | null;
            request_id?: string | null;
            retry_of?: number | null;
            /** Format: uuid */
            session_id: string;
        } & (unknown & unknown);
        /** SendResponse */
        SendResponse: {
            assistant_turn: components["schemas"]["Turn"];
            suggestion: components["schemas"]["Suggestion"];
            user_turn: components["schemas"]["Turn"];
        };
        /** Session */
        Session: {
            base_commit_hash: string | null;
            base_commit_id: string | null;
            continued_count: number;
            continued_in: components["schemas"]["Continuation"][];
            /** Format: date-time */
            created_at: string;
            created_by: components["schemas"]["Author"] | null;
            forked_from: components["schemas"]["ForkedFrom"] | null;
            /** Format: uuid */
            id: string;
            last_saved: components["schemas"]["LastSaved"] | null;
            model: string | null;
            provider: string | null;
            /** Format: uuid */
            repo_id: string;
            title: string;
            turn_count: number;
            /** Format: date-time */
            updated_at: string;
            usage: components["schemas"]["Usage"];
        };
        /** SessionCreate */
        SessionCreate: {
            base_commit_id?: string | null;
            model?: string | null;
            provider?: string | null;
            /** @description Default: "". */
            title?: string;
        };
        /** SessionPage */
        SessionPage: {
            items: components["schemas"]["Session"][];
            limit: number;
            offset: number;
            total: number;
        };
        /** SessionUpdate */
        SessionUpdate: {
            title: string;
        };
        /** SetFields */
        SetFields: {
            summary?: string;
        };
        /** SkippedConversation */
        SkippedConversation: {
            reason: string;
            session_id: string | null;
            title: string;
        };
        /** Space */
        Space: {
            /** Format: date-time */
            created_at: string;
            description: string;
            head_commit_hash: string | null;
            head_commit_id: string | null;
            head_message: string | null;
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: date-time */
            updated_at: string;
            usage: components["schemas"]["Usage"];
        };
        /** SpaceCreate */
        SpaceCreate: {
            /** @description Default: "". */
            description?: string;
            name: string;
        };
        /** SpacePage */
        SpacePage: {
            items: components["schemas"]["Space"][];
            limit: number;
            offset: number;
            total: number;
        };
        /** SpaceUpdate */
        SpaceUpdate: {
            description?: string;
            name?: string;
        };
        /** Suggestion */
        Suggestion: {
            checkpoint_recommended: boolean;
            reason: string | null;
        };
        /** Task */
        Task: {
            /** @default false */
            done?: boolean;
            text: string;
        };
        /** TaskChange */
        TaskChange: {
            added: components["schemas"]["Task"][];
            changed: components["schemas"]["TaskDone"][];
            removed: components["schemas"]["Task"][];
        };
        /** TaskDone */
        TaskDone: {
            after_done: boolean;
            before_done: boolean;
            text: string;
        };
        /** TextChange */
        TextChange: {
            after: string;
            before: string;
            changed: boolean;
        };
        /** TranscriptImport */
        TranscriptImport: {
            repo_id?: string | null;
            /** @description Default: "". */
            title?: string;
            transcript: string;
        };
        /** TranscriptResult */
        TranscriptResult: {
            context_pack: string;
            session_id: string | null;
            turns: components["schemas"]["ImportedTurn"][];
        };
        /** Turn */
        Turn: {
            /** @default false */
            at_limit?: boolean;
            checkpoint_id: string | null;
            content: string;
            context_sha256?: string | null;
            context_through_seq?: number | null;
            /** Format: date-time */
            created_at: string;
            created_by: components["schemas"]["Author"] | null;
            history_base_seq: number | null;
            input_tokens: number | null;
            model: string | null;
            output_tokens: number | null;
            provider: string | null;
            request_id: string | null;
            retry_of?: number | null;
            /** @enum {string} */
            role: "user" | "assistant";
            sequence_number: number;
            /** Format: uuid */
            session_id: string;
            /** @default false */
            stopped?: boolean;
        };
        /** TurnPage */
        TurnPage: {
            items: components["schemas"]["Turn"][];
            limit: number;
            offset: number;
            total: number;
        };
        /** Usage */
        Usage: {
            input_tokens: number;
            output_tokens: number;
            uncounted_replies: number;
        };
        /** VerifyProblem */
        VerifyProblem: {
            commit_id: string | null;
            detail: string;
            kind: string;
        };
        /** VerifyReport */
        VerifyReport: {
            checked: number;
            ok: boolean;
            problems: components["schemas"]["VerifyProblem"][];
            /** Format: uuid */
            repo_id: string;
        };
        /** Webhook */
        Webhook: {
            active: boolean;
            /** Format: date-time */
            created_at: string;
            disabled_reason: string | null;
            /** Format: uuid */
            id: string;
            repo_id: string | null;
            types: string[] | null;
            url: string;
        };
        /** WebhookCreate */
        WebhookCreate: {
            repo_id?: string | null;
            types?: string[] | null;
            url: string;
        };
        /** WebhookPage */
        WebhookPage: {
            items: components["schemas"]["Webhook"][];
            limit: number;
            offset: number;
            total: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ingestTranscript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TranscriptImport"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TranscriptResult"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body, or the Checkpoint it would make, is larger than the configured limit (`limit_bytes`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    commitCheckpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CommitCreate"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Checkpoint"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body, or the Checkpoint it would make, is larger than the configured limit (`limit_bytes`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    previewContext: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContextRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextPreview"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    sendMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendRequest"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendResponse"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider is rate limiting; retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider failed or answered with something unusable. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database is unavailable, too busy to answer in time, or rolled the request back to resolve a conflict with a concurrent one; or too many requests of this kind are already waiting, or the server is shutting down; retry later (`Retry-After`, when sent, says when). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getCheckpoint: {
        parameters: {
            query?: never;
            header?: {
                /** @description A Checkpoint's `ETag` (its quoted hash): 304 with no body while it still matches. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description A Checkpoint's id, its full hash, or a unique prefix of the hash (at least 7 hex digits). */
                ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Checkpoint"];
                };
            };
            /** @description Not modified: the Checkpoint is the one whose `ETag` was sent. */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProviderList"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSpaces: {
        parameters: {
            query?: {
                /** @description Items per page. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpacePage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createSpace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SpaceCreate"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Space"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSpace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Space"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteSpace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, nothing follows */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateSpace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SpaceUpdate"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Space"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listLines: {
        parameters: {
            query?: {
                /** @description Items per page. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinePage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createLine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LineCreate"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Line"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getLine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A line's name, matched whatever its case, Unicode form or spacing (a name may hold `/`; no line has a longer one, so a longer name is a 404). */
                name: string;
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Line"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteLine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A line's name, matched whatever its case, Unicode form or spacing (a name may hold `/`; no line has a longer one, so a longer name is a 404). */
                name: string;
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, nothing follows */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateLine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A line's name, matched whatever its case, Unicode form or spacing (a name may hold `/`; no line has a longer one, so a longer name is a 404). */
                name: string;
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LineUpdate"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Line"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listCheckpoints: {
        parameters: {
            query?: {
                /** @description A line's name (matched whatever its case, Unicode form or spacing). */
                branch?: string | null;
                /** @description Items per page. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
            };
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckpointPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getHead: {
        parameters: {
            query?: {
                /** @description A line's name (matched whatever its case, Unicode form or spacing). */
                branch?: string | null;
            };
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Checkpoint"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: {
                /** @description Only the Sessions continued from (forked from) this Session. */
                forked_from?: string | null;
                /** @description Items per page. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
                /** @description Only the Sessions whose title contains this text, ignoring case (a plain substring: `%` and `_` are characters). Blank: every Session. */
                q?: string | null;
            };
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionCreate"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    verifySpace: {
        parameters: {
            query?: {
                /** @description A full Checkpoint hash (64 hex digits) kept elsewhere; repeatable. */
                anchor?: string[] | null;
            };
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifyReport"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, nothing follows */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    updateSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionUpdate"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listTurns: {
        parameters: {
            query?: {
                after_seq?: number;
                limit?: number;
                offset?: number;
            };
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TurnPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAnsweredContext: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Turn's sequence number in its Session. */
                sequence_number: number;
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnsweredContext"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listAgents: {
        parameters: {
            query?: {
                /** @description Items per page. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentKeyPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createAgent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentCreate"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewAgentKey"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    revokeAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                agent_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, nothing follows */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    applyChanges: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApplyRequest"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Checkpoint"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body, or the Checkpoint it would make, is larger than the configured limit (`limit_bytes`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    draftCheckpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DraftRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckpointDraft"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider is rate limiting; retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider failed or answered with something unusable. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    reviewCheckpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                commit_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReviewRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReviewResult"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider is rate limiting; retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider failed or answered with something unusable. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    diffCheckpoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Checkpoint's id, its full hash, or a unique prefix of the hash (at least 7 hex digits). */
                from_ref: string;
                /** @description A Checkpoint's id, its full hash, or a unique prefix of the hash (at least 7 hex digits). */
                to_ref: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CheckpointDiff"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    restoreCheckpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A Checkpoint's id, its full hash, or a unique prefix of the hash (at least 7 hex digits). */
                ref: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RestoreRequest"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Checkpoint"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body, or the Checkpoint it would make, is larger than the configured limit (`limit_bytes`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description Only the changes of `human` (the person) or of one agent key (its id). Pages only. */
                actor?: string | null;
                /** @description Only events with a greater id: the `next_after` of the previous page, or the last id seen. */
                after?: number | string | null;
                /** @description Newest first, only events with a smaller id: the `next_before` of the previous page. */
                before?: number | string | null;
                /** @description Events per page (not for a stream). */
                limit?: number;
                /** @description `oldest` first (from `after`), or `newest` first (below `before`). Pages only. */
                order?: "oldest" | "newest";
                /** @description Only events of this type; repeatable (any of them). Pages only. */
                type?: string[] | null;
            };
            header?: {
                /** @description A stream's start, sent by an EventSource that reconnects; over `after` when both are given. */
                "Last-Event-ID"?: number | string | null;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description What the request starts from was removed for good (events past their retention). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database is unavailable, too busy to answer in time, or rolled the request back to resolve a conflict with a concurrent one; or too many requests of this kind are already waiting, or the server is shutting down; retry later (`Retry-After`, when sent, says when). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getMe: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or wrong bearer token. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listSpaceEvents: {
        parameters: {
            query?: {
                /** @description Only the changes of `human` (the person) or of one agent key (its id). Pages only. */
                actor?: string | null;
                /** @description Only events with a greater id: the `next_after` of the previous page, or the last id seen. */
                after?: number | string | null;
                /** @description Newest first, only events with a smaller id: the `next_before` of the previous page. */
                before?: number | string | null;
                /** @description Events per page (not for a stream). */
                limit?: number;
                /** @description `oldest` first (from `after`), or `newest` first (below `before`). Pages only. */
                order?: "oldest" | "newest";
                /** @description Only events of this type; repeatable (any of them). Pages only. */
                type?: string[] | null;
            };
            header?: {
                /** @description A stream's start, sent by an EventSource that reconnects; over `after` when both are given. */
                "Last-Event-ID"?: number | string | null;
            };
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description What the request starts from was removed for good (events past their retention). */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database is unavailable, too busy to answer in time, or rolled the request back to resolve a conflict with a concurrent one; or too many requests of this kind are already waiting, or the server is shutting down; retry later (`Retry-After`, when sent, says when). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    exportSpace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Space as a bundle, streamed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The database is unavailable, too busy to answer in time, or rolled the request back to resolve a conflict with a concurrent one; or too many requests of this kind are already waiting, or the server is shutting down; retry later (`Retry-After`, when sent, says when). */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    importConversations: {
        parameters: {
            query?: {
                /** @description Import conversations this Space already holds again, as new Sessions (by default they are skipped, naming the Session that holds each). */
                copies?: boolean;
            };
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>[];
                "application/x-ndjson": string;
                "application/zip": string;
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationImportResult"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body, or the Checkpoint it would make, is larger than the configured limit (`limit_bytes`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is not of the media type this route reads. */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    previewMerge: {
        parameters: {
            query: {
                /** @description The side merged into. A line's name (matched whatever its case, Unicode form or spacing), else a Checkpoint id, full hash or unique prefix of this Space: a line's name comes first. */
                ours: string;
                /** @description The side merged in. A line's name (matched whatever its case, Unicode form or spacing), else a Checkpoint id, full hash or unique prefix of this Space: a line's name comes first. */
                theirs: string;
            };
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MergePreview"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    reviewMerge: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MergeReviewRequest"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MergeReview"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider is rate limiting; retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider failed or answered with something unusable. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The provider did not answer in time. */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listProposals: {
        parameters: {
            query?: {
                /** @description Items per page. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
                /** @description Only proposals in this state. */
                status?: "open" | "merged" | "closed" | null;
            };
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    openProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProposalCreate"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalDetail"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A proposal's number in its Space (from 1). */
                number: number;
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalDetail"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    closeProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A proposal's number in its Space (from 1). */
                number: number;
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProposalClose"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalDetail"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    mergeProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A proposal's number in its Space (from 1). */
                number: number;
                repo_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ProposalMerge"];
            };
        };
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProposalDetail"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    importSpace: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Space"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request conflicts with the current state (for example HEAD has moved). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body, or the Checkpoint it would make, is larger than the configured limit (`limit_bytes`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as a bundle (Content-Type: application/x-ndjson). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    search: {
        parameters: {
            query: {
                /** @description Only Checkpoints, or only Turns. */
                kind?: "checkpoint" | "turn" | null;
                /** @description Items per page. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
                /** @description What to find, as in a web search box: words (stemmed: "deploying" finds "deploy"), "a phrase" in quotes, `or` between alternatives, `-word` to leave out. */
                q: string;
                /** @description Only this Space's. */
                repo_id?: string | null;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    forkSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ForkRequest"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Items per page. */
                limit?: number;
                /** @description Items to skip. */
                offset?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    /** @description RFC 8288 links to the neighbouring pages: `rel="next"` while items remain past this page, `rel="prev"` and `rel="first"` past the first one. Each is this request's path and query with `offset` changed; absent when there is no such page. */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreate"];
            };
        };
        responses: {
            /** @description Document created, URL follows */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NewWebhook"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The body is not declared as JSON (Content-Type: application/json). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, nothing follows */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Request fulfilled, document follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Deliveries"];
                };
            };
            /** @description The request is malformed or breaks a rule; `errors` names the offending fields. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The caller may not do this: an agent key where only the person may, a read-only key writing, or a protected line. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No such resource. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
}
