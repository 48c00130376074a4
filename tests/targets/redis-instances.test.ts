/**
 * Several instances behind a load balancer: two Node processes sharing one Redis and one
 * secret, with the rounds of each flow alternating between them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ELICITATION,
  askToIncrement,
  expectOpaqueRejection,
  readCounter,
  retryIncrement,
  uniqueKey,
} from "../helpers/flows";
import { post } from "../helpers/rpc";
import { needs } from "../helpers/programs.mjs";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { startInstancesOnRedis } from "./redis.mjs";

let instances: Awaited<ReturnType<typeof startInstancesOnRedis>>;
let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  instances = await startInstancesOnRedis();
  ({ a, b } = instances);
}, 180_000);
afterAll(() => instances?.stop());

const ask = (server: RunningServer, extra: object = {}) =>
  post(server.url, "tools/call", { name: "three_questions", arguments: {}, ...extra }, { capabilities: ELICITATION });

describe("two instances sharing Redis and one secret", needs("redis-server"), () => {
  it("both use the shared store", async () => {
    // Log lines leave at the end of the event loop's turn: they may follow the "Listening" line.
    await expect.poll(() => a.logs()).toMatch(/\[mcp\] storage: Redis/);
    await expect.poll(() => b.logs()).toMatch(/\[mcp\] storage: Redis/);
  });

  it("completes a flow whose rounds alternate between the instances", async () => {
    let result = await ask(a);
    const answers = [
      ["word", { word: "Kim" }],
      ["color", { color: "green" }],
      ["size", { size: 4 }],
    ] as const;
    for (const [index, [key, content]] of answers.entries()) {
      result = await ask(index % 2 === 0 ? b : a, {
        inputResponses: { [key]: { action: "accept", content } },
        requestState: result.body.result.requestState,
      });
    }
    expect(result.body.result.content[0].text).toBe("Kim, green, 4.");
  });

  it("refuses on one instance a single-use state redeemed on the other; both see the counter moved once", async () => {
    const key = uniqueKey();
    const state = await askToIncrement(a.url, key);
    expect((await retryIncrement(b.url, key, state)).body.result.content[0].text).toBe(`Counter ${key} is now 1.`);
    const mark = a.logs().length;
    expectOpaqueRejection(await retryIncrement(a.url, key, state));
    await expect.poll(() => a.logs().slice(mark)).toMatch(/already redeemed/);
    expect(await readCounter(a.url, key)).toBe(1);
    expect(await readCounter(b.url, key)).toBe(1);
  });

  it("refuses each other's states when the secrets differ", async () => {
    const other = await startServer({
      env: { REDIS_URL: instances.redis.url, NITRO_MCP_STATE_SECRET: "another-secret-0123456789abcdef012345" },
    });
    const first = await ask(a);
    expectOpaqueRejection(
      await ask(other, {
        inputResponses: { word: { action: "accept", content: { word: "x" } } },
        requestState: first.body.result.requestState,
      }),
    );
    await other.stop();
  });
});
