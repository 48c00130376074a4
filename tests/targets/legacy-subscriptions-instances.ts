/**
 * 2025-era resource updates across instances (`describeInstances`, run on each store whose bus instances share:
 * `legacy-subscriptions-*.test.ts`): a subscription made through either instance, and a change made through B, reach the
 * GET stream open on A.
 */
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  changeUntilHeard,
  heardUpdates,
  initializeLegacy,
  officialLegacyClient,
  openLegacyStream,
  postLegacy,
} from "../helpers/legacy";
import type { RunningServer } from "../helpers/server.mjs";

export interface Instances {
  a: RunningServer;
  b: RunningServer;
  /** How many connections the store's pub/sub has on a resource's channel, when it can tell. */
  subscribersOf?: (uri: string) => Promise<number>;
  stop(): Promise<void>;
}

const change = (url: string, uri: string) =>
  postLegacy(url, undefined, {
    id: 1,
    method: "tools/call",
    params: { name: "change_resource", arguments: { uri } },
  });
const subscribe = (url: string, session: string, uri: string) =>
  postLegacy(url, session, { id: 1, method: "resources/subscribe", params: { uri } });
const uniqueItem = () => `fixture://items/${crypto.randomUUID()}`;

/** The cases on the instances `start` starts (skipped with `options.skip`). */
export function describeInstances(name: string, options: { skip?: boolean }, start: () => Promise<Instances>) {
  describe.skipIf(options.skip ?? false)(
    `2025-era resource updates across instances, ${name}`,
    { timeout: 60_000 },
    () => {
      let instances: Instances;
      beforeAll(async () => {
        instances = await start();
      }, 180_000);
      afterAll(() => instances?.stop());

      it("the official client subscribes on A and hears a change made through B", async () => {
        const uri = uniqueItem();
        const { client } = await officialLegacyClient(instances.a.url, () => ({ action: "cancel" }), {});
        expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true });
        const heard = heardUpdates();
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
          heard.add(notification.params.uri),
        );
        await client.subscribeResource({ uri });
        await changeUntilHeard(heard, uri, () => change(instances.b.url, uri));
        await client.close();
      });

      it("a subscription made through B on A's session reaches A's stream; closing it lets go of the channel", async () => {
        const uri = uniqueItem();
        const session = (await initializeLegacy(instances.a.url, {}))!;
        const { response, stream } = await openLegacyStream(instances.a.url, session);
        expect(response.status).toBe(200);
        const heard = heardUpdates();
        const reading = (async () => {
          for (let message = await stream!.next(); message; message = await stream!.next())
            heard.add(message.params.uri);
        })();
        expect((await subscribe(instances.b.url, session, uri)).body!.result).toEqual({});
        await changeUntilHeard(heard, uri, () => change(instances.b.url, uri));
        if (instances.subscribersOf) expect(await instances.subscribersOf(uri)).toBe(1);
        await stream!.close();
        await reading;
        if (instances.subscribersOf)
          await expect.poll(() => instances.subscribersOf!(uri), { timeout: 10_000 }).toBe(0);
      });

      it("20 subscribes at once on one session, through both instances: all succeed, and the session holds all 20", async () => {
        const session = (await initializeLegacy(instances.a.url, {}))!;
        const uris = Array.from({ length: 20 }, uniqueItem);
        const answers = await Promise.all(
          uris.map((uri, index) => subscribe(index % 2 ? instances.b.url : instances.a.url, session, uri)),
        );
        expect(answers.map((answer) => [answer.status, answer.body])).toEqual(
          uris.map(() => [200, { jsonrpc: "2.0", id: 1, result: {} }]),
        );
        // At most 20 per session: a 21st is refused only if none of the 20 was lost.
        const beyond = await subscribe(instances.b.url, session, uniqueItem());
        expect(beyond.body!.error).toMatchObject({ code: -32602, message: expect.stringMatching(/at most 20/) });
      });
    },
  );
}
