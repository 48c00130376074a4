/**
 * Work that goes on after the response: a task's rounds. On Node the process simply keeps running
 * it; on Workers and Vercel the platform must be told, or it stops the work with the response
 * (Workers: `waitUntil`, at most 30 s after the response; Vercel: its request context's `waitUntil`,
 * within the function's maximum duration).
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
