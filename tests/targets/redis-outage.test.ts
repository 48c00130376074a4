/**
 * The Redis store's outage: while Redis is down, a request that needs it gets a clear -32603 "storage unavailable" (HTTP
 * 503) at once, the reason in the log, the guarded action does not run and nothing is half-written (a resource update that
 * cannot be published is lost and logged; a listen stream honours no URI); once Redis is back, the same requests succeed
 * without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STORAGE_UNAVAILABLE, askToIncrement, readCounter, retryIncrement, uniqueKey } from "../helpers/flows";
import { needs } from "../helpers/programs.mjs";
import { hasFeature } from "../helpers/project.mjs";
import { post } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { startRedis } from "./redis.mjs";

describe("Redis stops and comes back", needs("redis-server"), () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let server: RunningServer;
  beforeAll(async () => {
    redis = await startRedis({ persist: true });
    server = await startServer({ env: { REDIS_URL: redis.url } });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it("answers 503 / -32603 while it is down, runs nothing, loses nothing, and recovers without a restart", async () => {
    // Before: one counter at 1, and a flow waiting for its second round.
    const [done, pending] = [uniqueKey(), uniqueKey()];
    await retryIncrement(server.url, done, await askToIncrement(server.url, done));
    const state = await askToIncrement(server.url, pending);

    await redis.stop();
    const mark = server.logs().length;
    // Answered at all (each store operation gives up after 5 s; the test's timeout bounds the rest), not timed.
    const secondRound = await retryIncrement(server.url, pending, state);
    expect(secondRound.status).toBe(503);
    expect(secondRound.body.error).toEqual(STORAGE_UNAVAILABLE);
    const plainCall = await post(server.url, "tools/call", { name: "read_counter", arguments: { key: done } });
    expect(plainCall.status).toBe(503);
    expect(plainCall.body.error).toEqual(STORAGE_UNAVAILABLE);
    if (hasFeature("message-bus")) {
      // A resource update that cannot be published is lost, not the call that made the change.
      const change = await post(server.url, "tools/call", {
        name: "change_resource",
        arguments: { uri: "fixture://items/1" },
      });
      expect(change.body.result.content[0].text).toBe("Announced fixture://items/1.");
      await expect
        .poll(() => server.logs().slice(mark))
        .toMatch(/resource update not sent \(storage unavailable \(publish\)/);
      const listen = await post(
        server.url,
        "subscriptions/listen",
        { notifications: { resourceSubscriptions: ["fixture://items/1"] } },
        { id: "while-down" },
      );
      // A listen whose resources cannot be watched now is refused, never acknowledged as watching nothing.
      expect(listen.status).toBe(503);
      expect(listen.body.error).toEqual(STORAGE_UNAVAILABLE);
    }
    await expect.poll(() => server.logs().slice(mark)).toMatch(/storage unavailable \((setIfAbsent|getItem)\): /);

    await redis.start();
    // The client reconnects on its own; the state was never claimed, so the second round now acts, once.
    await expect
      .poll(async () => (await retryIncrement(server.url, pending, state)).body.result?.content?.[0]?.text, {
        timeout: 20_000,
        interval: 500,
      })
      .toBe(`Counter ${pending} is now 1.`);
    expect(await readCounter(server.url, pending)).toBe(1);
    expect(await readCounter(server.url, done)).toBe(1);
  }, 60_000);
});
