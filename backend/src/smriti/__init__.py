"""Smriti: version-control semantics for LLM work."""

__version__ = "0.1.0"
