import { useEffect } from "react";

/** Sets the tab's title ("Lisbon trip · Smriti") while the component is shown. */
export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    document.title = title ? `${title} · Smriti` : "Smriti";
  }, [title]);
}
