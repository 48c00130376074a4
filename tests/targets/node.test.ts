import { expect, it } from "vitest";
import { filesInNodeModules, OUTPUT, startServer } from "../helpers/server.mjs";
import { describeTarget } from "./suite";

describeTarget("Node build (npm run build)", () => startServer());

it("bundles its dependencies: no node_modules whose hundreds of files each cold start would load (nitro.config.ts)", () => {
  expect(filesInNodeModules(`${OUTPUT.fixtures}/server`)).toEqual([]);
});
