/**
 * Exactly once: 50 retries presenting one single-use state at the same moment, on every store.
 * One of them acts, the 49 others get the opaque -32602, and the stored counter moved by one.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Redis from "ioredis";
import { describe, expect, it } from "vitest";
import { OPAQUE_STATE_ERROR, askToIncrement, readCounter, retryIncrement, uniqueKey } from "../helpers/flows";
import { startServer } from "../helpers/server.mjs";
import { startWorker, startWorkerWith } from "../helpers/worker.mjs";
import { startInstancesOnRedis, NEEDS_REDIS } from "./redis.mjs";

const RETRIES = 50;

/** Fires RETRIES retries of one state at once, spread over `urls`; returns how many acted and how many were refused. */
async function race(urls: string[], key: string, state: string) {
  const results = await Promise.all(
    Array.from({ length: RETRIES }, (_, i) => retryIncrement(urls[i % urls.length]!, key, state)),
  );
  const acted = results.filter(
    (result) => result.body.result?.content?.[0]?.text === `Counter ${key} is now 1.`,
  ).length;
  const refused = results.filter(
    (result) => JSON.stringify(result.body.error) === JSON.stringify(OPAQUE_STATE_ERROR),
  ).length;
  return { acted, refused };
}

async function expectExactlyOnce(urls: string[]) {
  const key = uniqueKey();
  const state = await askToIncrement(urls[0]!, key);
  expect(await race(urls, key, state)).toEqual({ acted: 1, refused: RETRIES - 1 });
  for (const url of urls) expect(await readCounter(url, key)).toBe(1);
}

describe("exactly once", () => {
  it("in memory, on one Node instance", async () => {
    const server = await startServer();
    await expectExactlyOnce([server.url]);
    await server.stop();
  });

  // with:files
  it("on files (NITRO_MCP_STORAGE_DIR), on two Node instances sharing the folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcp-files-"));
    const [a, b] = await Promise.all([
      startServer({ env: { NITRO_MCP_STORAGE_DIR: dir } }),
      startServer({ env: { NITRO_MCP_STORAGE_DIR: dir } }),
    ]);
    await expectExactlyOnce([a.url, b.url]);
    await Promise.all([a.stop(), b.stop()]);
  });
  // end with:files

  // with:redis
  it("on Redis, across two Node instances", { ...NEEDS_REDIS, timeout: 60_000 }, async () => {
    const instances = await startInstancesOnRedis();
    await expectExactlyOnce([instances.a.url, instances.b.url]);
    // The claim outlives the state (600 s, NITRO_MCP_STATE_TTL_SECONDS's default) by a minute on Redis's own clock: an
    // instance whose clock lags, and so still opens the state after its expiry, finds the claim.
    const redis = new Redis(instances.redis.url);
    const [claim, ...others] = await redis.keys("mcp:atomic:claim:*");
    expect(others).toEqual([]);
    expect(await redis.ttl(claim!)).toBeGreaterThan(600 + 50);
    redis.disconnect();
    await instances.stop();
  });
  // end with:redis

  // with:cloudflare
  it("on Workers, in workerd, with the Durable Object", async () => {
    const worker = await startWorker();
    await expectExactlyOnce([worker.url]);
    await worker.stop();
  }, 90_000);

  it("a Worker without the Durable Object binding refuses to run, naming what to bind", async () => {
    const withoutDurableObject = (config: Record<string, unknown>) => {
      delete config.durable_objects;
      delete config.migrations;
      return config;
    };
    const failure = await startWorkerWith(withoutDurableObject).then(
      (worker) => worker.stop().then(() => new Error("the Worker started")),
      (error: Error) => error,
    );
    expect(failure.message).toMatch(
      /cannot claim a single-use requestState, which .*confirm_increment.* bind the Durable Object \$DurableObject/,
    );
    expect(failure.message).toMatch(/The Workers runtime failed to start/);
  }, 90_000);
  // end with:cloudflare
});
