"""The CLI's words for agent keys and proposals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from smriti.client.render import aligned, counted, one_line
from smriti.client.render_merge import conflict_lines

if TYPE_CHECKING:
    from smriti.access.schemas import AgentKey, NewAgentKey
    from smriti.core.schemas import Page
    from smriti.proposals.schemas import Proposal, ProposalDetail
    from smriti.spaces.schemas import Space


def agent_created(made: NewAgentKey) -> str:
    reach = "every Space" if made.spaces is None else counted(len(made.spaces), "Space")
    return "\n".join(
        [
            f"Agent key {made.name!r} ({made.id}): {'reads and writes' if made.write else 'reads'} {reach}.",
            made.token,
            "This is the only time the key is shown: give it to the agent as SMRITI_API_TOKEN (or its MCP "
            "host's Authorization header). It only means something when the server sets SMRITI_API_TOKEN.",
        ]
    )


def agents(page: Page[AgentKey]) -> str:
    if not page.items:
        return "No agent keys."
    rows = [["id", "name", "reach", "last used", "state"]]
    for key in page.items:
        reach = ("every Space" if key.spaces is None else counted(len(key.spaces), "Space")) + (
            "" if key.write else ", read-only"
        )
        used = key.last_used_at.isoformat(timespec="minutes") if key.last_used_at else "never"
        rows.append([str(key.id), one_line(key.name), reach, used, "revoked" if key.revoked_at else "active"])
    more = f"\n({len(page.items)} of {page.total}; --offset for more)" if page.total > len(page.items) else ""
    return "\n".join(aligned(rows)) + more


def _lines(proposal: Proposal) -> str:
    source = proposal.from_ if proposal.from_ is not None else f"{proposal.from_name} (deleted)"
    target = proposal.into if proposal.into is not None else f"{proposal.into_name} (deleted)"
    return f"{source} → {target}"


def _by(proposal: Proposal) -> str:
    author = proposal.created_by
    return "the person" if author is None else f"agent {author.name}"


def proposals(page: Page[Proposal], space: Space) -> str:
    if not page.items:
        return f"No proposals in {space.name!r}."
    rows = [[f"#{p.number}", p.status, _lines(p), one_line(p.title), _by(p)] for p in page.items]
    more = f"\n({len(page.items)} of {page.total}; --offset for more)" if page.total > len(page.items) else ""
    return f"Proposals of {space.name!r}, newest first:\n" + "\n".join(aligned(rows)) + more


def proposal(detail: ProposalDetail, *, next_step: str | None = None) -> str:
    out = [
        f"Proposal #{detail.number}: {one_line(detail.title)}  [{detail.status}]",
        f"  {_lines(detail)}, opened by {_by(detail)} at {detail.created_at.isoformat(timespec='seconds')}",
    ]
    if detail.description:
        out += ["", *("  " + line for line in detail.description.splitlines())]
    if detail.merge_commit_id is not None:
        out.append(f"  Merged as Checkpoint {detail.merge_commit_id}.")
    if detail.closed_reason:
        out.append(f"  Closed: {one_line(detail.closed_reason)}")
    if detail.from_deleted:
        out.append(f"  The line {detail.from_name!r} was deleted: nothing can be merged.")
    elif detail.relation is None:
        out.append("  A line has no Checkpoint yet: nothing to merge.")
    elif detail.relation == "up_to_date":
        out.append(f"  Everything on {detail.from_!r} is already in {detail.into!r}.")
    else:
        out.append(
            f"  {detail.relation.replace('_', ' ')}: {detail.from_!r} at {detail.from_head_commit_id}, "
            f"{detail.into!r} at {detail.into_head_commit_id}."
        )
        if detail.conflicts:
            out.append(f"  {counted(len(detail.conflicts), 'conflict')} for the person to resolve:")
            for conflict in detail.conflicts:
                out += [
                    "    " + line for line in conflict_lines(conflict, ours=str(detail.into), theirs=str(detail.from_))
                ]
        else:
            out.append("  No conflicts: it merges as it is.")
    if next_step:
        out += ["", next_step]
    return "\n".join(out)
