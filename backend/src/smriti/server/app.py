"""The Litestar application factory. Settings are read here, when the app is built."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, cast

import structlog
from advanced_alchemy.extensions.litestar import (
    AsyncSessionConfig,
    EngineConfig,
    SQLAlchemyAsyncConfig,
    SQLAlchemyPlugin,
)
from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.spec import Components, License
from litestar.types import ControllerRouterHandler

from smriti import __version__
from smriti.access.guard import who_is_asking
from smriti.core.config import Settings
from smriti.core.cpu import resume_work, stop_work
from smriti.core.logging import configure_logging
from smriti.core.pagination import page_dependency
from smriti.db.embedded import start_embedded_postgres
from smriti.db.migrate import upgrade_async
from smriti.db.pool import connect_options, create_pool
from smriti.db.urls import sqlalchemy_url
from smriti.providers.registry import ProviderRegistry
from smriti.server.api import api_routers
from smriti.server.body_limit import drain_rejected_bodies
from smriti.server.docs_ui import OfflineSwaggerRenderPlugin
from smriti.server.errors import to_error_response
from smriti.server.health import health
from smriti.server.json_body import StrictRequest
from smriti.server.mcp import McpEndpoint
from smriti.server.memory import tune_allocator
from smriti.server.methods import head_and_options
from smriti.server.openapi import BEARER, bearer_scheme, refine_openapi
from smriti.server.request_rules import request_rules
from smriti.server.services import Services
from smriti.server.stopping import when_stopping
from smriti.server.webapp import DEFAULT_WEB_DIR, first_segment, no_web_app, web_router
from smriti.sessions.claims import claim_ttl_s

log = structlog.get_logger("smriti")

OPENAPI_PATH = "/schema"


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    configure_logging(settings)
    database_url = settings.database_url or start_embedded_postgres(settings.data_dir)
    providers = ProviderRegistry(settings)
    services = Services(
        providers,
        nudge_after_turns=settings.nudge_after_turns,
        claim_ttl_s=claim_ttl_s(settings.provider_timeout_s, settings.provider_max_retries),
        max_import_bytes=settings.max_import_bytes,
        # A Checkpoint is held to what one request body may carry, however it is built.
        max_checkpoint_bytes=settings.max_body_bytes,
        max_bundle_line_bytes=settings.max_bundle_line_bytes,
        event_retention_days=settings.event_retention_days,
        max_event_streams=settings.max_event_streams,
        webhook_allow_private=settings.webhook_allow_private,
        webhook_retry_window_s=settings.webhook_retry_hours * 3600,
    )
    mcp = McpEndpoint(settings)
    sqlalchemy = SQLAlchemyAsyncConfig(
        connection_string=sqlalchemy_url(database_url),
        before_send_handler="autocommit",
        session_config=AsyncSessionConfig(expire_on_commit=False),
        engine_config=EngineConfig(
            pool_size=settings.db_pool_size,
            max_overflow=0,
            pool_pre_ping=True,
            # SQLAlchemy takes seconds as a float; advanced-alchemy's annotation says int.
            pool_timeout=cast("int", settings.db_acquire_timeout_s),
            connect_args=connect_options(
                acquire_timeout_s=settings.db_acquire_timeout_s,
                statement_timeout_s=settings.db_statement_timeout_s,
            ),
        ),
        set_default_exception_handler=False,
    )

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        if settings.migrate_on_start:
            await upgrade_async(database_url, lock_timeout_s=settings.migration_lock_timeout_s)
        pool = await create_pool(
            database_url,
            size=settings.db_pool_size,
            acquire_timeout=settings.db_acquire_timeout_s,
            statement_timeout=settings.db_statement_timeout_s,
        )
        services.start(pool)
        # Start-up garbage is permanent; keep the collector from walking it on every pause.
        gc.collect()
        gc.freeze()
        tune_allocator()
        log.info("smriti ready", default_provider=providers.default_name)
        streams = services.chat.streams
        resume_work()
        forget_streams = when_stopping(lambda: streams.drain(settings.shutdown_grace_s))
        # Work off the event loop (token counts, imports, reviews) ends at once: the stop does not
        # wait on it (core/cpu.py).
        forget_work = when_stopping(stop_work)
        # The event streams never end on their own: the stop ends them, and the hub's loop.
        services.events.start()
        forget_events = when_stopping(services.events.stop)
        services.deliverer.start()
        forget_deliveries = when_stopping(services.deliverer.stop_soon)
        try:
            async with mcp.run(app):  # the MCP endpoint stops before the pool closes
                yield
        finally:
            forget_streams()
            forget_work()
            forget_events()
            await services.events.close()
            forget_deliveries()
            resume_work()  # the stop is over: whatever runs next in this process (tests, tools) may work
            await services.deliverer.stop()  # before the pool closes: it gives back its leases
            await pool.close()
            # advanced-alchemy (1.12) disposes the ORM's engine only for the first config of a
            # process: later ones get a renamed state key its shutdown does not look up. Without
            # this, every app after the first (tests, tools) left its ORM connections open.
            await sqlalchemy.get_engine().dispose()
            await providers.close()

    protection = [who_is_asking(settings.api_token, lambda: services.agents)]
    open_routes: list[ControllerRouterHandler] = [health]
    guarded_routes: list[ControllerRouterHandler] = [*api_routers(protection), mcp.route_handler(protection)]
    web_dir = settings.web_dir or DEFAULT_WEB_DIR
    reserved = {first_segment(r) for r in (*open_routes, *guarded_routes)} | {first_segment(OPENAPI_PATH)}
    web = web_router(web_dir, reserved=reserved) if (web_dir / "index.html").is_file() else no_web_app
    app = Litestar(
        route_handlers=[*open_routes, *guarded_routes, web],
        plugins=[SQLAlchemyPlugin(config=sqlalchemy)],
        dependencies={"page": page_dependency(settings.max_page_size), **services.dependencies()},
        exception_handlers={Exception: to_error_response},
        lifespan=[lifespan],
        # For code outside a request (the benchmarks); handlers get dependencies instead.
        state=State({"services": services}),
        openapi_config=OpenAPIConfig(
            title="Smriti API",
            version=__version__,
            description="Version-control semantics for LLM work: Spaces, Checkpoints, exact context.",
            license=License(name="MIT", identifier="MIT"),
            components=Components(security_schemes={BEARER: bearer_scheme()}),
            # `{}`: the token is the server's choice (SMRITI_API_TOKEN); without one, no scheme applies.
            security=[{BEARER: []}, {}],
            path=OPENAPI_PATH,
            render_plugins=[OfflineSwaggerRenderPlugin(OPENAPI_PATH)],  # its files are the app's own
        ),
        request_max_body_size=settings.max_body_bytes,
        middleware=_middleware(settings),
        # No CORS headers at all unless origins are configured: same origin only.
        cors_config=CORSConfig(allow_origins=list(settings.cors_origins)) if settings.cors_origins else None,
        request_class=StrictRequest,
        logging_config=None,
        debug=settings.debug,
    )
    refine_openapi(app)
    # Before routing, outside Litestar's own layers: HEAD and OPTIONS as HTTP means them.
    app.asgi_handler = head_and_options(app.asgi_handler)
    return app


def _middleware(settings: Settings) -> list[Any]:
    # Outermost first: the Host and the body's type, before any body is read. (The token is
    # checked on the routers that need it, also before any body is read.)
    return [request_rules(settings.allowed_hosts), drain_rejected_bodies(settings.max_body_bytes)]
