/**
 * 2025-era resource updates across instances: two Node instances of the fixture build sharing one Redis (its store keeps
 * a session's subscriptions, its pub/sub carries them and the updates). A subscription made through either instance,
 * and a change made through B, reach the GET stream open on A.
 */
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeUntilHeard, heardUpdates, initializeLegacy, officialLegacyClient, openLegacyStream, postLegacy } from "../helpers/legacy";
import { needs } from "../helpers/programs.mjs";
import { resourceChannel, startInstancesOnRedis } from "./redis.mjs";

const change = (url: string, uri: string) => postLegacy(url, undefined, { id: 1, method: "tools/call", params: { name: "change_resource", arguments: { uri } } });
const subscribe = (url: string, session: string, uri: string) => postLegacy(url, session, { id: 1, method: "resources/subscribe", params: { uri } });
const uniqueItem = () => `fixture://items/${crypto.randomUUID()}`;

describe("two instances sharing Redis", { ...needs("redis-server"), timeout: 60_000 }, () => {
  let instances: Awaited<ReturnType<typeof startInstancesOnRedis>>;
  let subscribersOf: (uri: string) => Promise<number>;
  let disconnect: () => void;
  beforeAll(async () => {
    instances = await startInstancesOnRedis();
    const { Redis } = await import("ioredis");
    const client = new Redis(instances.redis.url);
    subscribersOf = async (uri) => Number(((await client.pubsub("NUMSUB", await resourceChannel(uri))) as [string, number])[1]);
    disconnect = () => client.disconnect();
  }, 180_000);
  afterAll(async () => {
    disconnect?.();
    await instances?.stop();
  });

  it("the official client subscribes on A and hears a change made through B", async () => {
    const uri = uniqueItem();
    const { client } = await officialLegacyClient(instances.a.url, () => ({ action: "cancel" }), {});
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true });
    const heard = heardUpdates();
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => heard.add(notification.params.uri));
    await client.subscribeResource({ uri });
    await changeUntilHeard(heard, uri, () => change(instances.b.url, uri));
    await client.close();
  });

  it("a subscription made through B on A's session reaches A's stream; closing it lets go of every channel", async () => {
    const uri = uniqueItem();
    const session = (await initializeLegacy(instances.a.url, {}))!;
    const { response, stream } = await openLegacyStream(instances.a.url, session);
    expect(response.status).toBe(200);
    const heard = heardUpdates();
    const reading = (async () => {
      for (let message = await stream!.next(); message; message = await stream!.next()) heard.add(message.params.uri);
    })();
    expect((await subscribe(instances.b.url, session, uri)).body!.result).toEqual({});
    await changeUntilHeard(heard, uri, () => change(instances.b.url, uri));
    expect(await subscribersOf(uri)).toBe(1);
    await stream!.close();
    await reading;
    await expect.poll(() => subscribersOf(uri), { timeout: 10_000 }).toBe(0);
  });
});
