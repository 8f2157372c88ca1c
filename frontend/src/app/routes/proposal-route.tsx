import { Link } from "wouter";
import { ProposalPage } from "@/features/proposals";
import { SpacePageBar } from "./space-page-bar";

/** /spaces/:spaceId/proposals/:number — a proposal on a page of its own: its merge needs the width. */
export function ProposalRoute({ spaceId, number }: { spaceId: string; number: string }) {
  const parsed = /^[1-9]\d{0,9}$/.test(number) ? Number(number) : null;
  return (
    <>
      <SpacePageBar
        spaceId={spaceId}
        href={`/spaces/${spaceId}?panel=proposals`}
        label="Proposals"
      />
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
