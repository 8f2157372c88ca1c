"""Keep large request buffers in the heap rather than in fresh pages on every request.

glibc's malloc serves big allocations with mmap and gives freed memory at the top of the heap
back to the kernel. A commit with a 1 MB artifact holds several 1 MB buffers at once (the body, the
decoded text, its JSON, the database parameter, the response); each came as fresh pages, and the
page faults and zeroing made the server's CPU per byte about twice as high at 1 MB as at 100 KB
(`make bench`, the artifact growth rows). Fixed thresholds let those buffers be reused instead,
at the price of keeping up to `TRIM_THRESHOLD` bytes of freed heap.
"""

from __future__ import annotations

import ctypes
import ctypes.util

# From glibc's <malloc.h>.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

MMAP_THRESHOLD = 16 * 2**20
TRIM_THRESHOLD = 64 * 2**20


def tune_allocator() -> bool:
    """Set the thresholds in this process. False where the C library has no `mallopt` (not glibc)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # mallopt answers 1 on success and 0 on error.
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
