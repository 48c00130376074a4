#!/usr/bin/env node
/**
 * `npm run preview:vercel`: serves a Vercel build output locally (`.vercel/output` from
 * `npm run build:vercel`, or the folder given as the first argument), the way Vercel's Node
 * runtime calls it: the function's default export is a Node `(req, res)` handler.
 * HOST/PORT as for `npm start`; the environment is passed through.
 */
import { createServer } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const output = process.argv[2] ?? ".vercel/output";
const entry = resolve(output, "functions/__fallback.func/index.mjs");
const { default: handler } = await import(pathToFileURL(entry).href);
const host = process.env.HOST || "127.0.0.1";
const server = createServer(handler).listen(Number(process.env.PORT ?? 3000), host, () => {
  const { port } = server.address();
  console.log(`Listening on http://${host}:${port} (Vercel output)`);
});
