import { shortHash } from "@/lib/format";

/** A Checkpoint named in a sentence, the one way the UI does it: short hash, then its message. */
export function CheckpointName({ hash, message }: { hash: string; message: string }) {
  return (
    <>
      <code>{shortHash(hash)}</code> “{message}”
    </>
  );
}
