"""The event tests' shared fixture: `pool`, a pool of their own beside the app's (another process's,
for the tests that need two)."""

from tests.events.support import events_pool

pool = events_pool
