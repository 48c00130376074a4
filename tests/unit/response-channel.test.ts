/**
 * The response channel (server/mcp/http/channel.ts) watches its client only when asked (the signal, `closed`, a stream),
 * and a client found gone then still ends the response. Over real HTTP, a handler learning its client left:
 * tests/e2e/transport.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestServer } from "../helpers/in-process";

// The module reads the runtime config: it is loaded once a test server provides one, whatever ran before.
let ResponseChannel: typeof import("../../server/mcp/http/channel").ResponseChannel;
beforeAll(async () => {
  await createTestServer({ definitions: [] });
  ({ ResponseChannel } = await import("../../server/mcp/http/channel"));
});

/** A watcher that finds the client gone, as `disconnectWatcher` does for a response already destroyed; counts its calls. */
function clientGone() {
  const watcher = Object.assign(
    (cancel: () => void) => {
      watcher.calls++;
      cancel();
    },
    { calls: 0 },
  );
  return watcher;
}

describe("the response channel", () => {
  it("closes a stream opened after its client left, after what was buffered, so the response ends", async () => {
    const channel = new ResponseChannel(clientGone());
    channel.send('{"jsonrpc":"2.0","method":"notifications/progress"}');
    const reader = channel.openStream().getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("notifications/progress");
    expect(await reader.read()).toEqual({ done: true, value: undefined });
    expect(channel.closed).toBe(true);
  });

  it("aborts the signal of a handler that first asks once its client left, watching the client once", () => {
    const watcher = clientGone();
    const channel = new ResponseChannel(watcher);
    expect(channel.signal.aborted).toBe(true);
    expect(channel.closed).toBe(true);
    expect(watcher.calls).toBe(1);
  });

  it("watches nothing for a request that never asks", () => {
    const watcher = clientGone();
    const channel = new ResponseChannel(watcher);
    channel.send("{}");
    channel.finish("{}");
    expect(watcher.calls).toBe(0);
  });
});
