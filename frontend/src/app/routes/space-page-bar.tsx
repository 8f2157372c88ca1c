import { Link } from "wouter";
import { useSpace } from "@/features/spaces";
import { TopBar } from "../top-bar";

/** The top bar of a page inside a Space: Spaces / the Space / this page (`href`, `label`). */
export function SpacePageBar({
  spaceId,
  href,
  label,
}: {
  spaceId: string;
  href: string;
  label: string;
}) {
  const space = useSpace(spaceId);
  return (
    <TopBar spaceId={spaceId}>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href="/">Spaces</Link>
        <span aria-hidden="true">/</span>
        <Link href={`/spaces/${spaceId}`}>{space.data?.name ?? "…"}</Link>
        <span aria-hidden="true">/</span>
        <Link href={href} className="crumb-current">
          {label}
        </Link>
      </nav>
    </TopBar>
  );
}
