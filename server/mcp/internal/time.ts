/** Now, in whole seconds since the epoch: the unit of every expiry in this server. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Waits `ms`, or less: it resolves as soon as `signal` fires. */
export function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
