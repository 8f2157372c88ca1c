"""The objects behind the request handlers, one set per process.

The stores need the connection pool, and the pool needs the running event loop, so they are built
when the app starts (`start`, from the lifespan). Handlers receive them as named dependencies
whose providers take no parameters: Litestar validates a provider's parameters on every request
(one msgspec conversion each, ~10% of a HEAD read's instructions when the provider took
`state: State`), and reading an attribute has nothing to validate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from litestar.di import Provide

from smriti.access.caller import current_caller
from smriti.access.keys import AgentKeys
from smriti.bundles.service import BundleService
from smriti.chat.exchange import ChatService
from smriti.chat.store import ChatStore
from smriti.checkpoints.store import CheckpointStore
from smriti.checkpoints.verbs import CheckpointVerbs
from smriti.db.pool import Pool
from smriti.drafting.service import DraftService
from smriti.events.hub import EventHub
from smriti.lines.store import LineStore
from smriti.merges.review import MergeReviewService
from smriti.merges.service import MergeService
from smriti.proposals.service import ProposalService
from smriti.proposals.store import ProposalStore
from smriti.providers.registry import ProviderRegistry
from smriti.review.service import ReviewService
from smriti.search.service import SearchService
from smriti.sessions.claims import SendClaims
from smriti.sessions.forks import SessionForks
from smriti.sessions.turns import TurnStore
from smriti.transcripts.service import TranscriptService
from smriti.webhooks.addresses import resolve_system
from smriti.webhooks.deliverer import Deliverer
from smriti.webhooks.store import WebhookStore

# Each is a dependency of that name, for handlers that declare `<name>: NamedDependency[<type>]`.
_PROVIDED = (
    "providers",
    "pool",
    "checkpoints",
    "verbs",
    "lines",
    "merges",
    "merge_reviews",
    "forks",
    "turns",
    "chat",
    "drafts",
    "reviews",
    "transcripts",
    "bundles",
    "search",
    "agents",
    "proposals",
    "events",
    "webhooks",
)


class Services:
    pool: Pool
    checkpoints: CheckpointStore
    verbs: CheckpointVerbs
    lines: LineStore
    merges: MergeService
    merge_reviews: MergeReviewService
    forks: SessionForks
    turns: TurnStore
    chat: ChatService
    drafts: DraftService
    reviews: ReviewService
    transcripts: TranscriptService
    bundles: BundleService
    search: SearchService
    agents: AgentKeys
    proposals: ProposalService
    events: EventHub
    webhooks: WebhookStore
    deliverer: Deliverer

    def __init__(
        self,
        providers: ProviderRegistry,
        *,
        nudge_after_turns: int,
        claim_ttl_s: float,
        max_import_bytes: int,
        max_checkpoint_bytes: int,
        max_bundle_line_bytes: int,
        event_retention_days: int,
        max_event_streams: int,
        webhook_allow_private: bool,
        webhook_retry_window_s: float,
    ) -> None:
        self.providers = providers
        self._nudge_after_turns = nudge_after_turns
        self._claim_ttl_s = claim_ttl_s
        self._max_import_bytes = max_import_bytes
        self._max_checkpoint_bytes = max_checkpoint_bytes
        self._max_bundle_line_bytes = max_bundle_line_bytes
        self._event_retention_days = event_retention_days
        self._max_event_streams = max_event_streams
        self._webhook_allow_private = webhook_allow_private
        self._webhook_retry_window_s = webhook_retry_window_s

    def start(self, pool: Pool) -> None:
        self.pool = pool
        self.checkpoints = CheckpointStore(pool, max_checkpoint_bytes=self._max_checkpoint_bytes)
        self.verbs = CheckpointVerbs(pool, self.checkpoints)
        self.lines = LineStore(pool, self.checkpoints)
        self.merges = MergeService(pool, self.checkpoints)
        self.forks = SessionForks(pool)
        self.turns = TurnStore(pool)
        self.chat = ChatService(
            store=ChatStore(pool),
            turns=self.turns,
            providers=self.providers,
            nudge_after_turns=self._nudge_after_turns,
            claims=SendClaims(pool, ttl_s=self._claim_ttl_s),
        )
        self.drafts = DraftService(turns=self.turns, providers=self.providers)
        self.reviews = ReviewService(checkpoints=self.checkpoints, providers=self.providers)
        self.merge_reviews = MergeReviewService(self.merges, self.reviews)
        self.transcripts = TranscriptService(
            turns=self.turns, max_import_bytes=self._max_import_bytes, max_item_bytes=self._max_bundle_line_bytes
        )
        self.bundles = BundleService(pool, self._max_import_bytes, self._max_bundle_line_bytes)
        self.search = SearchService(pool)
        self.agents = AgentKeys(pool)
        self.proposals = ProposalService(pool, ProposalStore(pool), self.merges, self.checkpoints)
        # Started by the lifespan, which also stops it (`server/app.py`).
        self.events = EventHub(pool, retention_days=self._event_retention_days, max_streams=self._max_event_streams)
        self.webhooks = WebhookStore(pool, allow_private=self._webhook_allow_private, resolve=resolve_system)
        # Started and stopped by the app's lifespan (`server/app.py`).
        self.deliverer = Deliverer(
            pool, allow_private=self._webhook_allow_private, retry_window_s=self._webhook_retry_window_s
        )

    def dependencies(self) -> dict[str, Provide]:
        provided = {name: Provide(self._provider(name), sync_to_thread=False) for name in _PROVIDED}
        # Who is asking: set for each request by the guard (`access/guard.py`).
        return {**provided, "caller": Provide(current_caller, sync_to_thread=False)}

    def _provider(self, name: str) -> Callable[[], Any]:
        def provide() -> Any:
            return getattr(self, name)

        return provide
