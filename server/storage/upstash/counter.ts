/** The Upstash store's rate counter: the GCRA script (`../redis/gcra-script.ts`) through the REST API's `eval`, on the atomic keys. */
import type { RateCounter } from "../../mcp/kit";
import { GCRA_SCRIPT, scriptAnswer } from "../redis/gcra-script";
import { ATOMIC_PREFIX } from "../redis/commands";

interface UpstashEval {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

export default function upstashCounter(client: unknown): RateCounter {
  const loaded = client as Promise<UpstashEval>;
  return async (key, limit, windowMs) =>
    scriptAnswer(await (await loaded).eval(GCRA_SCRIPT, [ATOMIC_PREFIX + key], [`${limit}`, `${windowMs}`]));
}
