import { readdirSync } from "node:fs";
import { expect, it } from "vitest";
import { OUTPUT, startServer } from "../helpers/server.mjs";
import { describeTarget } from "./suite";

describeTarget("Node build (npm run build)", () => startServer());

it("bundles its dependencies: no node_modules whose hundreds of files each cold start would load (nitro.config.ts)", () => {
  expect(readdirSync(`${OUTPUT.fixtures}/server`)).not.toContain("node_modules");
});
