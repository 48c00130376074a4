/**
 * Asking a 2025-era client across instances (`describeInstances`, run on each store whose bus instances share:
 * `legacy-ask-*.test.ts`), over real HTTP behind a round-robin proxy, so the answers to a question asked on one instance's
 * stream may reach another, which publishes them on the store's bus.
 */
import type { ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { createServer, request as forward, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueKey } from "../helpers/flows";
import {
  IMAGE_SAMPLING_ANSWER,
  ROOTS_ANSWER,
  answerLegacy,
  fillFirstField,
  initializeLegacy,
  officialLegacyClient,
  openLegacyCall,
  postLegacy,
  samplingAndRootsQuestions,
} from "../helpers/legacy";
import type { RunningServer } from "../helpers/server.mjs";

export interface Instances {
  a: RunningServer;
  b: RunningServer;
  stop(): Promise<void>;
}

type Routed = { target: number; kind: "call" | "answer" | "other"; id?: unknown };

/** Each request to the next instance in turn; what went where, by the JSON-RPC message's kind. */
async function roundRobin(targets: string[]) {
  const routed: Routed[] = [];
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const target = next++ % targets.length;
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      try {
        const message = JSON.parse(body.toString());
        routed.push({
          target,
          kind: message.method === "tools/call" ? "call" : "method" in message ? "other" : "answer",
          id: message.id,
        });
      } catch {
        routed.push({ target, kind: "other" });
      }
      const url = new URL(targets[target]!);
      const upstream = forward(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: incoming.method,
          headers: { ...incoming.headers, host: url.host },
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(outgoing);
        },
      );
      upstream.on("error", () => outgoing.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    routed,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const CONFIRM = { action: "accept", content: { confirm: true } };
const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

/** The cases on the instances `start` starts (skipped with `options.skip`). */
export function describeInstances(name: string, options: { skip?: boolean }, start: () => Promise<Instances>) {
  describe.skipIf(options.skip ?? false)(
    `asking a 2025-era client across instances, ${name}`,
    { timeout: 60_000 },
    () => {
      let instances: Instances;
      let proxy: Awaited<ReturnType<typeof roundRobin>>;
      beforeAll(async () => {
        instances = await start();
        proxy = await roundRobin([instances.a.url, instances.b.url]);
      }, 180_000);
      afterAll(async () => {
        await proxy?.stop();
        await instances?.stop();
      });

      /** The counter a fixture tool acts on, read through the proxy. */
      async function counter(key: string): Promise<number> {
        const read = await postLegacy(proxy.url, undefined, {
          id: 1,
          method: "tools/call",
          params: { name: "read_counter", arguments: { key } },
        });
        return read.body!.result.structuredContent.value;
      }

      /** The calls and answers routed since `from`: how many answers, and which targets they went to. */
      function routedSince(from: number) {
        const routed = proxy.routed.slice(from).filter((entry) => entry.kind !== "other");
        return {
          answers: routed.filter((entry) => entry.kind === "answer").length,
          targets: new Set(routed.map((entry) => entry.target)),
        };
      }

      it("the official client: a single-use confirmation, accept acts once and decline does nothing", async () => {
        const [yes, no] = [uniqueKey(), uniqueKey()];
        const from = proxy.routed.length;
        const { client } = await officialLegacyClient(
          proxy.url,
          (params) => (params.message.includes(yes) ? (CONFIRM as ElicitResult) : { action: "decline" }),
          {
            elicitation: { form: {} },
          },
        );
        expect(text(await client.callTool({ name: "confirm_increment", arguments: { key: yes } }))).toBe(
          `Counter ${yes} is now 1.`,
        );
        expect(text(await client.callTool({ name: "confirm_increment", arguments: { key: no } }))).toBe(
          `Counter ${no} unchanged: decline.`,
        );
        await client.close();
        expect(routedSince(from)).toEqual({ answers: 2, targets: new Set([0, 1]) });
        expect([await counter(yes), await counter(no)]).toEqual([1, 0]);
      });

      it("the official client: three rounds, each answer reaching whichever instance", async () => {
        const from = proxy.routed.length;
        const { client, asked } = await officialLegacyClient(
          proxy.url,
          fillFirstField({ word: "kite", color: "blue", size: 2 }),
          { elicitation: { form: {} } },
        );
        expect(text(await client.callTool({ name: "three_questions", arguments: {} }))).toBe("kite, blue, 2.");
        expect(asked.map((params) => params.message)).toEqual([
          "Question 1: a word?",
          "Question 2: a colour for kite?",
          "Question 3: a size?",
        ]);
        await client.close();
        expect(routedSince(from)).toEqual({ answers: 3, targets: new Set([0, 1]) });
      });

      it("the official client: a sampling request and a roots request in one round", async () => {
        const from = proxy.routed.length;
        const { client } = await officialLegacyClient(proxy.url, () => ({ action: "cancel" }), {
          sampling: {},
          roots: {},
        });
        expect(text(await client.callTool({ name: "ask_model_and_roots", arguments: {} }))).toBe(
          "The model said hello; roots: file:///work/project.",
        );
        await client.close();
        expect(routedSince(from)).toEqual({ answers: 2, targets: new Set([0, 1]) });
      });

      it("a sampling answer with a ~100 KB image (over the bus's 64 KB message bound), through either instance", async () => {
        const from = proxy.routed.length;
        const session = (await initializeLegacy(proxy.url, { sampling: {}, roots: {} }))!;
        const call = await openLegacyCall(proxy.url, session, "ask_model_and_roots", {});
        const { sampling, roots } = await samplingAndRootsQuestions(call);
        expect((await answerLegacy(proxy.url, session, sampling.id, IMAGE_SAMPLING_ANSWER)).status).toBe(202);
        expect((await answerLegacy(proxy.url, session, roots.id, ROOTS_ANSWER)).status).toBe(202);
        expect((await call.final())!.result.content[0].text).toBe(
          "The model said (image); roots: file:///work/project.",
        );
        expect(routedSince(from)).toEqual({ answers: 2, targets: new Set([0, 1]) });
      });

      it("exactly once: 50 concurrent answers to one single-use question → one 202, the counter moved by one", async () => {
        const key = uniqueKey();
        const session = (await initializeLegacy(proxy.url, { elicitation: {} }))!;
        const call = await openLegacyCall(proxy.url, session, "confirm_increment", { key });
        const question = (await call.next())!;
        const statuses = await Promise.all(
          Array.from({ length: 50 }, () =>
            answerLegacy(proxy.url, session, question.id, CONFIRM).then((r) => r.status),
          ),
        );
        expect(statuses.filter((status) => status === 202)).toHaveLength(1);
        expect(statuses.filter((status) => status === 400)).toHaveLength(49);
        expect((await call.final())!.result.content[0].text).toBe(`Counter ${key} is now 1.`);
        expect(await counter(key)).toBe(1);
      });
    },
  );
}
