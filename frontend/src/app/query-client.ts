import { QueryClient } from "@tanstack/react-query";
import { ApiError } from "@/api/client";

/** Retries only what may succeed on retry (network trouble, 5xx), never a 4xx answer. */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 10_000,
        retry: (count, error) =>
          count < 2 && (!(error instanceof ApiError) || error.status === 0 || error.status >= 500),
      },
      mutations: { retry: false },
    },
  });
}
