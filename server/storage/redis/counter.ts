/** The Redis store's rate counter: the GCRA script (`gcra-script.ts`) in one `EVAL`, on the atomic keys, on Redis's clock. */
import type { RateCounter } from "../../mcp/kit";
import { GCRA_SCRIPT, scriptAnswer } from "./gcra-script";
import { ATOMIC_PREFIX } from "./commands";

interface IoRedisEval {
  eval(script: string, keys: number, ...args: string[]): Promise<unknown>;
}

export default function redisCounter(client: unknown): RateCounter {
  const loaded = client as Promise<IoRedisEval>;
  return async (key, limit, windowMs) =>
    scriptAnswer(await (await loaded).eval(GCRA_SCRIPT, 1, ATOMIC_PREFIX + key, `${limit}`, `${windowMs}`));
}
