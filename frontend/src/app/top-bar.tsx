import type { ReactNode } from "react";
import { Link } from "wouter";
import { useIsPerson } from "@/api/me";
import { ThemeToggle } from "@/components/theme-toggle";
import { SearchBox } from "@/features/search";

/** The bar above every page; its search box looks in `spaceId` only, when given. */
export function TopBar({
  children,
  spaceId = null,
}: {
  children?: ReactNode;
  spaceId?: string | null;
}) {
  const person = useIsPerson();
  return (
    <header className="top-bar">
      <Link href="/" className="brand" aria-label="Smriti — all Spaces">
        <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true">
          <rect width="32" height="32" rx="7" />
          <circle cx="11" cy="10" r="3" />
          <circle cx="11" cy="22" r="3" />
          <circle cx="21" cy="16" r="3" />
          <path d="M11 13v6M13.5 11.5l5 3" />
        </svg>
        <span className="brand-name">Smriti</span>
      </Link>
      {children}
      <SearchBox key={spaceId ?? "all"} spaceId={spaceId} />
      {person && (
        <nav className="top-nav" aria-label="Main">
          <Link href="/agents" className="top-nav-link" title="Agent keys: make, copy once, revoke">
            Agents
          </Link>
        </nav>
      )}
      <ThemeToggle />
    </header>
  );
}
