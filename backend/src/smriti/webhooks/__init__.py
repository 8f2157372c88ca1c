"""Webhooks (SYSTEM.md §14): the person's URLs, and every matching event POSTed to them, signed,
at least once and in order, by a loop in each server process (`deliverer.py`)."""
