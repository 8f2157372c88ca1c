"""The `smriti` command: run the server and manage the database.

(The agent-facing commands live in `smriti.client.cli.commands` and are added to this group.)
"""

from __future__ import annotations

import os
import sys

import click

from smriti.client.cli.commands import EXIT_CODES
from smriti.client.cli.commands import register as register_agent_commands
from smriti.core.config import ConfigError, Settings

EXIT_USAGE = 2


@click.group(
    context_settings={"help_option_names": ["-h", "--help"]}, epilog=f"Exit codes of the agent commands: {EXIT_CODES}"
)
@click.version_option(package_name="smriti")
def main() -> None:
    """Smriti: version-control semantics for LLM work.

    Agents read and write a Space's state with the commands below (docs/agents.md); `smriti mcp`
    serves the same operations as MCP tools. They reach the server at --url or $SMRITI_URL.
    """


def _database_url(settings: Settings) -> str:
    """DATABASE_URL, or the embedded server (started now, stopped when this process exits)."""
    if settings.database_url:
        return settings.database_url
    from smriti.db.embedded import start_embedded_postgres

    return start_embedded_postgres(settings.data_dir)


def _settings() -> Settings:
    try:
        return Settings.from_env()
    except ConfigError as exc:
        click.echo(f"smriti: {exc}", err=True)
        sys.exit(EXIT_USAGE)


def _migrate(url: str, revision: str, settings: Settings) -> None:
    from smriti.db.migrate import MigrationBlockedError, upgrade

    try:
        upgrade(url, revision, lock_timeout_s=settings.migration_lock_timeout_s)
    except MigrationBlockedError as exc:
        raise click.ClickException(str(exc)) from None


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=None, type=int, help="Port (default: $PORT or 8000).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Server processes.")
@click.option(
    "--server",
    "server_name",
    type=click.Choice(["uvicorn", "granian"]),
    default="uvicorn",
    show_default=True,
    help="ASGI server. uvicorn (with uvloop and httptools) measured faster for commits and sends, "
    "granian for reads at high concurrency; see docs/performance.md.",
)
def serve(host: str, port: int | None, workers: int, server_name: str) -> None:
    """Migrate the database and serve the API (and the web app, when built)."""
    settings = _settings()
    port = port if port is not None else int(os.environ.get("PORT") or 8000)
    from smriti.server.ready import announce_when_ready
    from smriti.server.serving import AddressInUse, check_free, serve_granian, serve_uvicorn

    try:
        check_free(host, port)
    except AddressInUse as exc:
        raise click.ClickException(f"{exc.strerror}; stop the server that uses it, or choose another --port") from None
    from smriti.db.embedded import release_embedded_postgres

    try:
        url = _database_url(settings)
        _migrate(url, "head", settings)
        # Workers inherit the resolved database and skip the (already done) migration.
        os.environ["DATABASE_URL"] = url
        os.environ["SMRITI_SKIP_MIGRATIONS"] = "1"
        click.echo(f"smriti: starting {workers} {server_name} worker(s) on {host}:{port}…", err=True)
        announce_when_ready(host, port, lambda text: click.echo(text, err=True))
        if server_name == "granian":
            serve_granian(host, port, workers)
            status = 0
        else:
            status = serve_uvicorn(host, port, workers)
    finally:
        # Stopped by a signal or by a failed worker alike: the embedded database stops with us.
        release_embedded_postgres()
    sys.exit(status)


@main.command()
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="-", help="File to write (default stdout).")
def openapi(output: str) -> None:
    """Print the OpenAPI document (no database needed)."""
    import dataclasses
    import json

    from smriti.server.app import create_app

    # The app is only built, never started, so this URL is never connected to.
    settings = dataclasses.replace(_settings(), database_url="postgresql://schema-only@localhost/unused")
    from litestar.serialization import encode_json

    document = json.loads(encode_json(create_app(settings).openapi_schema.to_schema()))
    text = json.dumps(document, indent=2, sort_keys=True) + "\n"
    with click.open_file(output, "w") as handle:
        handle.write(text)


@main.group()
def db() -> None:
    """Database commands."""


@db.command()
@click.option("--revision", default="head", show_default=True)
def upgrade(revision: str) -> None:
    """Apply migrations (starts the embedded database when DATABASE_URL is not set)."""
    settings = _settings()
    _migrate(_database_url(settings), revision, settings)
    click.echo(f"smriti: database at {revision}")


register_agent_commands(main)

if __name__ == "__main__":  # pragma: no cover
    main()
