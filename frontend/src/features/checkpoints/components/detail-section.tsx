import type { ReactNode } from "react";

/** A titled section of the Checkpoint detail, with its item count and "None." when empty. */
export function Section({
  title,
  count,
  empty,
  children,
}: {
  title: string;
  count?: number;
  empty?: boolean;
  children: ReactNode;
}) {
  const isEmpty = empty ?? count === 0;
  return (
    <section className="detail-section" aria-label={title}>
      <h3>
        {title} {count !== undefined && <span className="count">{count}</span>}
      </h3>
      {isEmpty ? <p className="muted small">None.</p> : children}
    </section>
  );
}
