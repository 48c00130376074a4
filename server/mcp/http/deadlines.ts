/**
 * Deadlines for request bodies, checked by one timer for the whole process rather than one timer
 * per request: arming and disarming a timer costs more than everything else the body read does.
 * A deadline fires at most TICK_MS late, which is nothing next to a timeout of seconds.
 */
const TICK_MS = 250;
const pending = new Set<{ readonly at: number; readonly expire: () => void }>();
let timer: ReturnType<typeof setInterval> | undefined;

function sweep(): void {
  const now = Date.now();
  for (const deadline of pending) {
    if (deadline.at > now) continue;
    pending.delete(deadline);
    deadline.expire();
  }
  if (pending.size === 0) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** Calls `expire` once `ms` have passed, unless the returned function is called first. */
export function setDeadline(ms: number, expire: () => void): () => void {
  const deadline = { at: Date.now() + ms, expire };
  pending.add(deadline);
  if (!timer) {
    timer = setInterval(sweep, TICK_MS);
    // Never what keeps a process alive (`unref` exists on Node's timers, not on Workers').
    (timer as { unref?: () => void }).unref?.();
  }
  return () => pending.delete(deadline);
}
