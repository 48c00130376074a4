/**
 * Asking a 2025-era client across instances: two Node instances sharing one Redis, behind a round-robin proxy, so the
 * answers to a question asked on one instance's stream reach the other, which publishes them on the store's bus (Redis pub/sub).
 */
import { createServer, request as forward, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueKey } from "../helpers/flows";
import { answerLegacy, fillFirstField, initializeLegacy, officialLegacyClient, openLegacyCall, postLegacy } from "../helpers/legacy";
import { needs } from "../helpers/programs.mjs";
import { startInstancesOnRedis } from "./redis.mjs";

/** Each request to the next instance in turn; what went where, by the JSON-RPC message's kind. */
async function roundRobin(targets: string[]) {
  const routed: { target: number; kind: "call" | "answer" | "other"; id?: unknown }[] = [];
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const target = next++ % targets.length;
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      try {
        const message = JSON.parse(body.toString());
        routed.push({ target, kind: message.method === "tools/call" ? "call" : "method" in message ? "other" : "answer", id: message.id });
      } catch {
        routed.push({ target, kind: "other" });
      }
      const url = new URL(targets[target]!);
      const upstream = forward({ host: url.hostname, port: url.port, path: url.pathname, method: incoming.method, headers: { ...incoming.headers, host: url.host } }, (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      });
      upstream.on("error", () => outgoing.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/mcp`, routed, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("two instances sharing Redis, behind a round-robin proxy", { ...needs("redis-server"), timeout: 60_000 }, () => {
  let instances: Awaited<ReturnType<typeof startInstancesOnRedis>>;
  let proxy: Awaited<ReturnType<typeof roundRobin>>;
  beforeAll(async () => {
    instances = await startInstancesOnRedis();
    proxy = await roundRobin([instances.a.url, instances.b.url]);
  });
  afterAll(async () => {
    await proxy?.stop();
    await instances?.stop();
  });

  it("the official client: three rounds and a single-use confirmation, each answer reaching whichever instance", async () => {
    const key = uniqueKey();
    const { client } = await officialLegacyClient(proxy.url, fillFirstField({ word: "kite", color: "blue", size: 2, confirm: true }), { elicitation: { form: {} } });
    const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
    expect(text(await client.callTool({ name: "three_questions", arguments: {} }))).toBe("kite, blue, 2.");
    expect(text(await client.callTool({ name: "confirm_increment", arguments: { key } }))).toBe(`Counter ${key} is now 1.`);
    await client.close();
    const calls = proxy.routed.filter((entry) => entry.kind === "call").map((entry) => entry.target);
    const answers = proxy.routed.filter((entry) => entry.kind === "answer").map((entry) => entry.target);
    expect(answers).toHaveLength(4);
    expect(new Set([...calls, ...answers])).toEqual(new Set([0, 1]));
  });

  it("exactly once: 50 concurrent answers spread over both instances → one 202, the counter moved by one", async () => {
    const key = uniqueKey();
    const session = (await initializeLegacy(proxy.url, { elicitation: {} }))!;
    const call = await openLegacyCall(proxy.url, session, "confirm_increment", { key });
    const question = (await call.next())!;
    const answer = { action: "accept", content: { confirm: true } };
    const statuses = await Promise.all(Array.from({ length: 50 }, () => answerLegacy(proxy.url, session, question.id, answer).then((r) => r.status)));
    expect(statuses.filter((status) => status === 202)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(49);
    expect((await call.final())!.result.content[0].text).toBe(`Counter ${key} is now 1.`);
    const read = await postLegacy(proxy.url, undefined, { id: 1, method: "tools/call", params: { name: "read_counter", arguments: { key } } });
    expect(read.body!.result.structuredContent).toEqual({ value: 1 });
  });
});
