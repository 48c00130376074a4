/**
 * Resource updates across instances, over real HTTP (`describeInstances`, run on each store whose bus instances share:
 * `resource-updates-*.test.ts`): a client listening on instance A hears a change made through instance B.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIRM, ELICITATION } from "../helpers/flows";
import { openListen, post, resourceUpdated } from "../helpers/rpc";
import type { RunningServer } from "../helpers/server.mjs";

/** The shipped examples (a fork may delete them): `delete_note` and the notes' resources. */
const EXAMPLES = existsSync("server/tools/delete_note.ts");

export interface Instances {
  a: RunningServer;
  b: RunningServer;
  /** How many connections the store's pub/sub has on a resource's channel, when it can tell. */
  subscribersOf?: (uri: string) => Promise<number>;
  stop(): Promise<void>;
}

const listen = (server: RunningServer, uris: string[]) =>
  openListen(fetch, server.url, { resourceSubscriptions: uris });

async function deleteNote(server: RunningServer, noteId: string) {
  const first = await post(
    server.url,
    "tools/call",
    { name: "delete_note", arguments: { note_id: noteId } },
    { capabilities: ELICITATION },
  );
  const params = {
    name: "delete_note",
    arguments: { note_id: noteId },
    inputResponses: CONFIRM,
    requestState: first.body.result.requestState,
  };
  return (await post(server.url, "tools/call", params, { capabilities: ELICITATION })).body.result.content[0]
    .text as string;
}

const change = async (server: RunningServer, uri: string) =>
  expect(
    (await post(server.url, "tools/call", { name: "change_resource", arguments: { uri } })).body.result.content[0].text,
  ).toBe(`Announced ${uri}.`);

/** The resource-update cases on the instances `start` starts (skipped with `options.skip`). */
export function describeInstances(name: string, options: { skip?: boolean }, start: () => Promise<Instances>) {
  describe.skipIf(options.skip ?? false)(`resource updates across instances, ${name}`, () => {
    let instances: Instances;
    beforeAll(async () => {
      instances = await start();
    }, 180_000);
    afterAll(() => instances?.stop());

    it("declares resources.subscribe", async () => {
      const discover = await post(instances.a.url, "server/discover", {});
      expect(discover.body.result.capabilities.resources).toEqual({ subscribe: true });
    });

    it.runIf(EXAMPLES)(
      "tells a client listening on A of a note deleted through B: note://{id} and notes://export",
      async () => {
        const { id, first, stream } = await listen(instances.a, ["note://12", "notes://export"]);
        expect(first?.params?.notifications, JSON.stringify(first)).toEqual({
          resourceSubscriptions: ["note://12", "notes://export"],
        });
        expect(await deleteNote(instances.b, "12")).toMatch(/^Deleted note 12/);
        // Each channel is heard on its own: in any order.
        const heard = [await stream.next(), await stream.next()].sort((x, y) =>
          String(x?.params.uri).localeCompare(String(y?.params.uri)),
        );
        expect(heard).toEqual([resourceUpdated(id, "note://12"), resourceUpdated(id, "notes://export")]);
        await stream.close();
      },
    );

    it("carries one change to every stream listening for it, on both instances", async () => {
      const listening = [
        await listen(instances.a, ["fixture://items/15"]),
        await listen(instances.a, ["fixture://items/15"]),
        await listen(instances.b, ["fixture://items/15"]),
      ];
      await change(instances.b, "fixture://items/12");
      await change(instances.a, "fixture://items/15");
      for (const { id, stream } of listening) {
        expect(await stream.next()).toEqual(resourceUpdated(id, "fixture://items/15"));
        await stream.close();
      }
    });

    it("lets go of the store's channel once the client goes away", async ({ skip }) => {
      if (!instances.subscribersOf) skip();
      const uri = "fixture://items/1";
      const { stream } = await listen(instances.a, [uri]);
      expect(await instances.subscribersOf!(uri)).toBe(1);
      await stream.close();
      await expect.poll(() => instances.subscribersOf!(uri), { timeout: 10_000 }).toBe(0);
    });
  });
}
