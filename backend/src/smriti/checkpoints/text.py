"""How a Checkpoint's items read as text, wherever one is rendered.

A Checkpoint is rendered for four readers, each view keeping only what its reader needs: the
model (`chat/context.py`: the mounted state, artifacts cut), a reviewing model
(`review/service.py`: items by field and index, so findings can point at them), an agent taking
over (`client/brief.py`: Markdown with the commands to continue) and a person at a terminal
(`client/render.py`). The items themselves read the same in all of them, from here.
"""

from __future__ import annotations

from smriti.checkpoints.schemas import Entity


def checkbox(done: bool) -> str:
    return "[x]" if done else "[ ]"


def entity_text(entity: Entity) -> str:
    """`name (kind): description`, each part only when it is there."""
    return (
        entity.name
        + (f" ({entity.kind})" if entity.kind else "")
        + (f": {entity.description}" if entity.description else "")
    )
