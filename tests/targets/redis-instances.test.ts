/**
 * Several instances behind a load balancer: two Node processes sharing one Redis and one
 * secret, with the rounds of each flow alternating between them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../helpers/rpc";
import { startServer, type RunningServer } from "../helpers/server.mjs";
import { startRedis } from "./redis.mjs";

const ELICITATION = { elicitation: { form: {} } };
const call = (server: RunningServer, tool: string, args: object, extra: object = {}) =>
  post(server.url, "tools/call", { name: tool, arguments: args, ...extra }, { capabilities: ELICITATION });
const notesOn = async (server: RunningServer) => (await call(server, "list_notes", {})).body.result.content[0].text as string;

let redis: { url: string; stop: () => Promise<void> };
let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  redis = await startRedis();
  [a, b] = await Promise.all([startServer({ env: { REDIS_URL: redis.url } }), startServer({ env: { REDIS_URL: redis.url } })]);
}, 180_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
});

describe("two instances sharing Redis and one secret", () => {
  it("both use the shared store", () => {
    expect(a.logs()).toMatch(/\[mcp\] storage: Redis/);
    expect(b.logs()).toMatch(/\[mcp\] storage: Redis/);
  });

  it("completes a wizard whose rounds alternate between the instances", async () => {
    let result = await call(a, "wizard", {});
    const answers = [["name", { name: "Kim" }], ["color", { color: "green" }], ["size", { size: 4 }]] as const;
    for (const [index, [key, content]] of answers.entries()) {
      const server = index % 2 === 0 ? b : a;
      result = await call(server, "wizard", {}, { inputResponses: { [key]: { action: "accept", content } }, requestState: result.body.result.requestState });
    }
    expect(result.body.result.content[0].text).toBe("All set, Kim: a green one, size 4.");
  });

  it("refuses on one instance a single-use state redeemed on the other, and the note is gone on both", async () => {
    const first = await call(a, "delete_note", { note_id: "12" });
    const retry = (server: RunningServer) =>
      call(server, "delete_note", { note_id: "12" }, {
        inputResponses: { confirm: { action: "accept", content: { confirm: true } } },
        requestState: first.body.result.requestState,
      });
    expect((await retry(b)).body.result.content[0].text).toMatch(/^Deleted note 12/);
    expect((await retry(a)).body.error).toEqual({ code: -32602, message: "Invalid or expired requestState" });
    expect(a.logs()).toMatch(/already redeemed/);
    expect(await notesOn(a)).not.toContain("#12 ");
    expect(await notesOn(b)).not.toContain("#12 ");
  });

  it("refuses each other's states when the secrets differ", async () => {
    const other = await startServer({ env: { REDIS_URL: redis.url, NITRO_MCP_STATE_SECRET: "another-secret-0123456789abcdef012345" } });
    const first = await call(a, "wizard", {});
    const crossed = await call(other, "wizard", {}, {
      inputResponses: { name: { action: "accept", content: { name: "x" } } },
      requestState: first.body.result.requestState,
    });
    expect(crossed.body.error).toEqual({ code: -32602, message: "Invalid or expired requestState" });
    await other.stop();
  });
});
