import { expect, it } from "vitest";
import { filesInNodeModules, OUTPUT, startVercelOutput } from "../helpers/server.mjs";
import { describeTarget } from "./suite";

describeTarget("Vercel output (npm run build:vercel)", () => startVercelOutput());

it("bundles its dependencies, as the Node build does (nitro.config.ts)", () => {
  expect(filesInNodeModules(`${OUTPUT.vercel}/functions`)).toEqual([]);
});
