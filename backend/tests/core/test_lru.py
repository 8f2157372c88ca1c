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


def test_putting_a_key_again_replaces_its_value_and_its_size() -> None:
    cache: SizedLru[int, bytes] = SizedLru(1000, len)
    cache.put(0, b"a" * 200)
    cache.put(0, b"b" * 100)
    assert cache.get(0) == b"b" * 100
    for key in range(1, 10):  # 9 × 100 more: only the replaced value's size counts
        cache.put(key, b"x" * 100)
    assert cache.get(0) == b"b" * 100
    cache.put(0, b"c" * 251)  # too large to keep: the key is gone, not left at its old value
    assert cache.get(0) is None
