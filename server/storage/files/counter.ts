/**
 * The files store's rate counter: a compare-and-set over its atomic operations (`../gcra.ts`), which processes sharing the
 * folder share; one count at a time per key in this process, so a compare-and-set only ever loses to another process.
 */
import type { AtomicStore, RateCounter } from "../../mcp/kit";
import { countWith } from "../gcra";

export default function filesCounter(client: unknown): RateCounter {
  const atomic = client as AtomicStore;
  const tails = new Map<string, Promise<unknown>>();
  return (key, limit, windowMs) => {
    const run = (tails.get(key) ?? Promise.resolve()).then(() => countWith(atomic, key, limit, windowMs));
    const tail = run.catch(() => {});
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
}
