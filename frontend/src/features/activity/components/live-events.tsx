import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTokenRequired } from "@/api/auth";
import { meQuery } from "@/api/me";
import { connectEvents } from "../api/connect-events";
import { EventApplier } from "../lib/apply-event";
import { LiveStream } from "../lib/live-stream";
import {
  isSomeoneElses,
  NO_NOTICES,
  type Viewer,
  viewerOf,
  withNotice,
  withoutNotice,
} from "../lib/notices";

/** How long a notice stays unless dismissed sooner. */
const NOTICE_MS = 12_000;

/**
 * The app's one live connection to the event log (started by the app shell, stopped while the
 * server wants a token): each event refreshes what it changes, and someone else's change shows
 * a short notice saying who did what.
 */
export function LiveEvents() {
  const queryClient = useQueryClient();
  const tokenRequired = useTokenRequired();
  const me = useQuery(meQuery()).data;
  const viewer = useRef<Viewer>(undefined);
  viewer.current = viewerOf(me);
  const [notices, setNotices] = useState(NO_NOTICES);

  useEffect(() => {
    if (tokenRequired) return;
    const applier = new EventApplier(queryClient);
    const stream = new LiveStream(connectEvents, {
      onEvent: (event) => {
        const someoneElses = isSomeoneElses(event, viewer.current);
        applier.add(event);
        if (!someoneElses) return;
        setNotices((current) => withNotice(current, event));
        setTimeout(() => setNotices((current) => withoutNotice(current, event.id)), NOTICE_MS);
      },
      // What came while away is gone from the log: everything shown may be out of date.
      onRestart: () => void queryClient.invalidateQueries(),
    });
    void stream.run();
    return () => {
      stream.stop();
      applier.stop();
    };
  }, [queryClient, tokenRequired]);

  const count = notices.shown.length;
  return (
    <section
      className="live-notices"
      role="status"
      aria-live="polite"
      aria-label="Changes by others"
    >
      {count > 0 && (
        <ul>
          {notices.shown.map((notice) => (
            <li key={notice.id} className="live-notice" data-testid="live-notice">
              <span>{notice.text}</span>
              <button
                type="button"
                className="btn ghost small"
                aria-label={`Dismiss: ${notice.text}`}
                onClick={() => setNotices((current) => withoutNotice(current, notice.id))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {count > 0 && notices.more > 0 && (
        <p className="muted live-notice-more">
          and {notices.more} earlier {notices.more === 1 ? "change" : "changes"}{" "}
          <button type="button" className="btn ghost small" onClick={() => setNotices(NO_NOTICES)}>
            Dismiss all
          </button>
        </p>
      )}
    </section>
  );
}
