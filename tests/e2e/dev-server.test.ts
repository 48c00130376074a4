/**
 * `npm run dev` as a newcomer meets it, in a copy of this checkout: with no configuration it serves, and when a definition
 * throws as its file loads (here a form with a nested object), the terminal says why the server did not start (Nitro's
 * dev server alone would only put it in every response's body: server/build/dev/start-up-errors.ts); once the file is
 * fixed, the reloaded server answers.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it, onTestFinished } from "vitest";
import { copyCheckout } from "../helpers/checkout-copy.mjs";
import { post } from "../helpers/rpc";
import { freePort, startProcess } from "../helpers/server.mjs";

const BROKEN_TOOL = `import { z } from "zod";

const Details = defineForm({ nested: z.object({ street: z.string() }) } as never);

export default defineTool({
  name: "nested_form",
  description: "Asks for an address",
  run: () => String(Details),
});
`;

// Generous bounds on "ever" (a cold dev build on a busy machine), not speeds; together under the test's own.
it("serves with no configuration, prints why a definition stopped it from starting, and serves once it is fixed", {
  timeout: 240_000,
}, async () => {
  const copy = copyCheckout(process.cwd(), "dev-server-");
  onTestFinished(() => rmSync(copy, { recursive: true, force: true }));
  const tool = join(copy, "server/tools/nested_form.ts");
  mkdirSync(join(copy, "server/tools"), { recursive: true });
  writeFileSync(tool, BROKEN_TOOL);
  // What the server itself sees of the monitor once it has loaded.
  mkdirSync(join(copy, "routes"), { recursive: true });
  writeFileSync(
    join(copy, "routes/_monitors.get.ts"),
    'export default defineEventHandler(() => ({ monitors: process.listenerCount("uncaughtExceptionMonitor") }));\n',
  );

  const port = await freePort();
  const dev = await startProcess({
    command: process.execPath,
    args: [
      join(copy, "node_modules/nitropack/dist/cli/index.mjs"),
      "dev",
      copy,
      "--host",
      "127.0.0.1",
      "--port",
      `${port}`,
    ],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    ready: /Local:\s+(http:\/\/[^/\s]+)/,
    timeoutMs: 60_000,
  });
  onTestFinished(() => dev.stop());

  await expect
    .poll(() => dev.rawLogs(), { timeout: 60_000, interval: 250 })
    .toMatch(/\[mcp\] the server did not start: Error: defineForm: field "nested" has unsupported type "object"/);
  expect((await post(dev.url, "server/discover", {})).status).toBe(500);

  rmSync(tool);
  await expect
    .poll(async () => (await post(dev.url, "server/discover", {})).status, { timeout: 60_000, interval: 500 })
    .toBe(200);
  // Once the server has loaded, the monitor is gone: a later error is Nitro's to report, not blamed on start-up.
  expect(await (await fetch(new URL("/_monitors", dev.url))).json()).toEqual({ monitors: 0 });
  expect(dev.rawLogs().match(/the server did not start/g)).toHaveLength(1);
});
