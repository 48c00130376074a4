#!/usr/bin/env node
/** Bundles micro-entry.ts with esbuild (it imports the TypeScript core directly) and prints its results as JSON. */
import { mkdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { ensureBenchDependencies } from "./dependencies.mjs";

ensureBenchDependencies();
const { build } = await import("esbuild");

const outfile = ".cache/bench/micro.mjs";
mkdirSync(".cache/bench", { recursive: true });
await build({
  entryPoints: ["tests/bench/micro-entry.ts"],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "error",
});
const { runMicroBenchmarks } = await import(pathToFileURL(outfile).href);
console.log(JSON.stringify(await runMicroBenchmarks(process.argv.includes("--smoke"))));
