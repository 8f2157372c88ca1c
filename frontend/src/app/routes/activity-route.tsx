import { Suspense } from "react";
import { Loading } from "@/components/feedback";
import { ActivityPage } from "@/features/activity";
import { useSpace } from "@/features/spaces";
import { useDocumentTitle } from "@/lib/use-document-title";
import { SpacePageBar } from "./space-page-bar";

/** /spaces/:spaceId/activity — who changed what in a Space, newest first. */
export function ActivityRoute({ spaceId }: { spaceId: string }) {
  const space = useSpace(spaceId);
  useDocumentTitle(space.data ? `Activity · ${space.data.name}` : undefined);
  return (
    <>
      <SpacePageBar spaceId={spaceId} href={`/spaces/${spaceId}/activity`} label="Activity" />
      <main className="app-main page">
        <Suspense fallback={<Loading what="activity" />}>
          <ActivityPage spaceId={spaceId} />
        </Suspense>
      </main>
    </>
  );
}
