/**
 * Reads one request header straight from the request object Nitro gives us (Node's
 * `IncomingMessage`, or its mock on Workers), whose names are already lower case.
 * Cheaper than `event.headers`, which builds a whole `Headers` object per request.
 */
import type { H3Event } from "h3";

export function requestHeader(event: H3Event, lowerCaseName: string): string | undefined {
  const value = event.node.req.headers[lowerCaseName];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** How many times the request carries a header: Node's `headers` keeps only the first of some (`authorization`), `rawHeaders` has them all. */
export function requestHeaderCount(event: H3Event, lowerCaseName: string): number {
  const raw = event.node.req.rawHeaders;
  let count = 0;
  for (let index = 0; index < raw.length; index += 2) if (raw[index]!.toLowerCase() === lowerCaseName) count++;
  return count;
}
