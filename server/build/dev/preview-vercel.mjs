#!/usr/bin/env node
/**
 * `npm run preview:vercel`: serves a Vercel build output locally (`.vercel/output` from
 * `npm run build:vercel`, or the folder given as the first argument), the way Vercel's Node
 * runtime calls it: the function's default export is a Node `(req, res)` handler.
 * HOST/PORT as for `npm start`; the environment is passed through, with a state secret made for
 * the run when NITRO_MCP_STATE_SECRET is not set (preview.mjs).
 */
import { createServer } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { checkAddress, previewAddress, previewSecret, refuseAddress } from "./preview.mjs";

const SCRIPT = "preview:vercel";
const output = process.argv[2] ?? ".vercel/output";
const address = previewAddress(3000);
await checkAddress(SCRIPT, address);
// Set before the function loads: its configuration is read from the environment.
process.env.NITRO_MCP_STATE_SECRET = previewSecret();

const entry = resolve(output, "functions/__fallback.func/index.mjs");
const { default: handler } = await import(pathToFileURL(entry).href);
const server = createServer(handler);
server.once("error", (error) => refuseAddress(SCRIPT, address, error));
server.listen(address.port, address.host, () => {
  const { port } = server.address();
  console.log(`Listening on http://${address.host}:${port} (Vercel output)`);
});
