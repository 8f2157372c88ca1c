"""One database URL, spelled the way each driver layer wants it."""

from __future__ import annotations

_SCHEMES = ("postgresql+asyncpg://", "postgresql+psycopg://", "postgresql://", "postgres://")


def _rest(url: str) -> str:
    for scheme in _SCHEMES:
        if url.startswith(scheme):
            return url[len(scheme) :]
    raise ValueError("DATABASE_URL must be a postgresql:// URL")


def asyncpg_url(url: str) -> str:
    """The URL asyncpg takes: plain postgresql://, a Unix socket as `?host=/dir` works as is."""
    return "postgresql://" + _rest(url)


def sqlalchemy_url(url: str) -> str:
    """The URL SQLAlchemy takes for its asyncpg dialect."""
    return "postgresql+asyncpg://" + _rest(url)
