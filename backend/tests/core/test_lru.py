"""The small size-bounded cache (core/lru.py)."""

from __future__ import annotations

from smriti.core.lru import SizedLru


def test_sized_lru_keeps_the_recently_used_within_its_budget() -> None:
    cache: SizedLru[int, bytes] = SizedLru(1000, len)
    for key in range(5):
        cache.put(key, b"x" * 200)
    assert cache.get(0) == b"x" * 200  # read: now the most recently used
    cache.put(5, b"x" * 200)  # over the budget: the least recently used goes
    assert cache.get(1) is None
    assert all(cache.get(key) is not None for key in (0, 2, 3, 4, 5))
    cache.put(6, b"y" * 251)  # larger than a quarter of the budget: not kept, nothing evicted
    assert cache.get(6) is None
    assert all(cache.get(key) is not None for key in (0, 2, 3, 4, 5))
