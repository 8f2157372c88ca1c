import { ErrorNotice } from "@/components/dialog";
import { FailureNotice } from "@/components/feedback";
import { plural } from "@/lib/format";
import { useVerifySpace } from "../api/verify-space";

/** Recomputes every hash and parent link of the Space's history and says whether it is intact. */
export function VerifyHistory({ spaceId }: { spaceId: string }) {
  const verify = useVerifySpace();
  const report = verify.data;
  return (
    <div className="verify" data-testid="verify">
      <button
        type="button"
        className="btn small"
        onClick={() => verify.mutate(spaceId)}
        disabled={verify.isPending}
      >
        {verify.isPending ? "Verifying…" : "Verify history"}
      </button>
      {report?.ok && (
        <span className="ok small" role="status">
          ✓ {plural(report.checked, "Checkpoint")} verified: every hash and parent link matches.
        </span>
      )}
      {report && !report.ok && (
        <ErrorNotice
          message={`History does not verify: ${report.problems.map((p) => `${p.kind} (${p.detail})`).join("; ")}`}
        />
      )}
      <FailureNotice error={verify.error} />
    </div>
  );
}
