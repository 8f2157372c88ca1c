"""Proposals: a request that the person merge one line of a Space into another (SYSTEM.md §13)."""
