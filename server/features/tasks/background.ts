/**
 * Work that goes on after the response: a task's rounds. On Node the process simply keeps running
 * it; a serverless platform must be told (its `waitUntil`), or it stops the work with the response,
 * and it bounds how long the work may go on (the README's "How long a task can run").
 */
import type { H3Event } from "h3";

const VERCEL_REQUEST_CONTEXT = Symbol.for("@vercel/request-context");

export function keepAlive(event: H3Event, work: Promise<unknown>): void {
  event.waitUntil(work);
  const vercel = (
    globalThis as Record<symbol, { get?: () => { waitUntil?: (work: Promise<unknown>) => void } } | undefined>
  )[VERCEL_REQUEST_CONTEXT];
  vercel?.get?.()?.waitUntil?.(work);
}
