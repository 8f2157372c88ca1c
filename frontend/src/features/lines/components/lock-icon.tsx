/** The mark of a protected line: agents change it only through a proposal. */
export function LockIcon() {
  return (
    <svg
      className="lock-icon"
      viewBox="0 0 16 16"
      role="img"
      aria-label="protected"
      data-testid="line-protected"
    >
      <title>Protected: agents change this line only through a proposal you merge</title>
      <rect x="3" y="7" width="10" height="7" rx="1.5" />
      <path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" />
    </svg>
  );
}
