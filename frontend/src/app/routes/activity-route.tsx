import { Suspense } from "react";
import { Link } from "wouter";
import { Loading } from "@/components/feedback";
import { ActivityPage } from "@/features/activity";
import { useSpace } from "@/features/spaces";
import { useDocumentTitle } from "@/lib/use-document-title";
import { TopBar } from "../top-bar";

/** /spaces/:spaceId/activity — who changed what in a Space, newest first. */
export function ActivityRoute({ spaceId }: { spaceId: string }) {
  const space = useSpace(spaceId);
  useDocumentTitle(space.data ? `Activity · ${space.data.name}` : undefined);
  return (
    <>
      <TopBar spaceId={spaceId}>
        <nav className="crumbs" aria-label="Breadcrumb">
          <Link href="/">Spaces</Link>
          <span aria-hidden="true">/</span>
          <Link href={`/spaces/${spaceId}`}>{space.data?.name ?? "…"}</Link>
          <span aria-hidden="true">/</span>
          <Link href={`/spaces/${spaceId}/activity`} className="crumb-current">
            Activity
          </Link>
        </nav>
      </TopBar>
      <main className="app-main page">
        <Suspense fallback={<Loading what="activity" />}>
          <ActivityPage spaceId={spaceId} />
        </Suspense>
      </main>
    </>
  );
}
