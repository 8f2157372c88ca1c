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

# The same shape in Japanese, ~4 KB of JSON too (985 characters of text): a script written without
# spaces, whose every character search indexes (migration 0018).
STATE_4KB_JAPANESE: dict[str, Any] = {
    "summary": "バージョン管理された推論ストアのストレージ層を設計しています。" * 3,
    "decisions": [f"決定{i}：ターンはセッションと連番で管理する" for i in range(12)],
    "assumptions": [f"前提{i}：当面は一つのリージョンで足りる" for i in range(8)],
    "tasks": [{"text": f"タスク{i}：ホットパスを計測する", "done": i % 2 == 0} for i in range(10)],
    "open_questions": [f"質問{i}：ブランチはすぐに必要か？" for i in range(6)],
    "entities": [{"name": f"部品{i}", "kind": "コンポーネント", "description": "システムの一部"} for i in range(6)],
    "artifacts": [{"name": "計画.md", "content": "手順一、手順二、手順三。" * 20}],
    "metadata": {"author": {"kind": "agent", "name": "bench"}},
}

# A reply of 300 characters in Japanese, as a send stores it.
REPLY_JAPANESE = ("ストレージ層はセッションと連番でターンを管理し、チェックポイントは親を指す木にします。" * 8)[:300]
