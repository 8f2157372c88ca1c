"""A least-recently-used cache bounded by the total size of what it holds."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SizedLru(Generic[K, V]):
    """Values by key, the least recently used dropped first once their sizes add up to more than
    `max_size`. A value larger than a quarter of the budget is not kept: one would evict many.
    Putting a key again replaces its value (a cache of something that moves on, such as a
    receipt's hash state, must not keep answering the first one)."""

    def __init__(self, max_size: int, size: Callable[[V], int]) -> None:
        self._items: OrderedDict[K, V] = OrderedDict()
        self._max_size = max_size
        self._size_of = size
        self._size = 0

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> None:
        size = self._size_of(value)
        replaced = self._items.pop(key, None)
        if replaced is not None:
            self._size -= self._size_of(replaced)
        if size > self._max_size // 4:
            return
        self._items[key] = value
        self._size += size
        while self._size > self._max_size:
            _, dropped = self._items.popitem(last=False)
            self._size -= self._size_of(dropped)
