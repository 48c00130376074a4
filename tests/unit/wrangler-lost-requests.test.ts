/**
 * `post` sends again a request that `wrangler dev` lost before the Worker saw it (tests/helpers/rpc.ts), and nothing else:
 * checked against a stand-in for the proxy that loses requests on purpose.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { post } from "../helpers/rpc";

type Answer = (request: IncomingMessage, response: ServerResponse) => void;

const ANSWERED = { jsonrpc: "2.0", id: 1, result: { resultType: "complete" } };
const answer: Answer = (_request, response) => {
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(ANSWERED));
};
const proxyLost: Answer = (_request, response) => {
  response
    .writeHead(503, { "retry-after": "0" })
    .end("Your worker restarted mid-request. Please try sending the request again.");
};
const reset: Answer = (request) => request.socket.resetAndDestroy();

/** Closes the servers the test started. */
const closers: (() => Promise<void>)[] = [];
afterEach(() => Promise.all(closers.splice(0).map((close) => close())));

/** A server answering its n-th request with `answers[n]` (the last one from then on); returns its URL and a request count. */
async function proxy(...answers: Answer[]) {
  let count = 0;
  const server = createServer((request, response) => {
    const reply = answers[Math.min(count++, answers.length - 1)]!;
    request.resume().on("end", () => reply(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, requests: () => count };
}

describe("a request wrangler dev lost on the way", () => {
  it.each([
    ["its proxy answered 503 for", proxyLost],
    ["the connection was reset before any answer to", reset],
  ])("is sent again when %s it, up to three times", async (_case, lose) => {
    const once = await proxy(lose, answer);
    expect(await post(once.url, "ping")).toMatchObject({ status: 200, body: ANSWERED });
    expect(once.requests()).toBe(2);
    const thrice = await proxy(lose, lose, lose, answer);
    expect(await post(thrice.url, "ping")).toMatchObject({ status: 200, body: ANSWERED });
    expect(thrice.requests()).toBe(4);
  });

  it("fails as fetch does when it is lost a fourth time", async () => {
    const always = await proxy(reset);
    await expect(post(always.url, "ping")).rejects.toThrow(/fetch failed/);
    expect(always.requests()).toBe(4);
  });

  it("is never sent again once the Worker answered, even with a 503 or a connection cut mid-answer", async () => {
    const unavailable = await proxy((_request, response) =>
      response.writeHead(503, { "content-type": "application/json", "retry-after": "5" }).end(JSON.stringify(ANSWERED)),
    );
    expect(await post(unavailable.url, "ping")).toMatchObject({ status: 503, body: ANSWERED });
    expect(unavailable.requests()).toBe(1);
    const cut = await proxy((request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "1000" }).write("{");
      setImmediate(() => request.socket.resetAndDestroy());
    });
    // Reading the cut body fails ("terminated"), with the same socket codes as a request lost before any answer.
    await expect(post(cut.url, "ping")).rejects.toThrow(/^terminated$/);
    expect(cut.requests()).toBe(1);
  });
});
