"""The ~4 KB state a benchmark commit sends (and each row of the floor's table holds), shared by
every bench script so that their rows compare the same work."""

from __future__ import annotations

from typing import Any

STATE_4KB: dict[str, Any] = {
    "summary": "We are designing the storage layer for a versioned reasoning store. " * 6,
    "decisions": [f"Decision {i}: keep turns keyed by session and sequence number" for i in range(12)],
    "assumptions": [f"Assumption {i}: a single region is enough for now" for i in range(8)],
    "tasks": [{"text": f"Task {i}: benchmark the hot path", "done": i % 2 == 0} for i in range(10)],
    "open_questions": [f"Question {i}: do we need branching soon?" for i in range(6)],
    "entities": [{"name": f"Entity{i}", "kind": "component", "description": "part of the system"} for i in range(6)],
    "artifacts": [{"name": "plan.md", "content": "step one; step two; step three. " * 30}],
    "metadata": {"author": {"kind": "agent", "name": "bench"}},
}
