import { Link } from "wouter";
import { ProposalPage } from "@/features/proposals";
import { useSpace } from "@/features/spaces";
import { TopBar } from "../top-bar";

/** /spaces/:spaceId/proposals/:number — a proposal on a page of its own: its merge needs the width. */
export function ProposalRoute({ spaceId, number }: { spaceId: string; number: string }) {
  const space = useSpace(spaceId);
  const parsed = /^[1-9]\d{0,9}$/.test(number) ? Number(number) : null;
  return (
    <>
      <TopBar spaceId={spaceId}>
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link href="/">Spaces</Link>
          <span aria-hidden="true">/</span>
          <Link href={`/spaces/${spaceId}`}>{space.data?.name ?? "…"}</Link>
          <span aria-hidden="true">/</span>
          <Link href={`/spaces/${spaceId}?panel=proposals`} className="crumb-current">
            Proposals
          </Link>
        </nav>
      </TopBar>
      <main className="app-main page proposal-main">
        {parsed === null ? (
          <p>
            No proposal is numbered “{number}”.{" "}
            <Link href={`/spaces/${spaceId}?panel=proposals`}>See this Space's proposals</Link>.
          </p>
        ) : (
          <ProposalPage spaceId={spaceId} number={parsed} />
        )}
      </main>
    </>
  );
}
