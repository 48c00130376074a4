import { readdirSync, readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { filesInNodeModules, OUTPUT, startServer } from "../helpers/server.mjs";
import { describeTarget } from "./suite";

describeTarget("Node build (npm run build)", () => startServer());

it("bundles its dependencies: no node_modules whose hundreds of files each cold start would load (nitro.config.ts)", () => {
  expect(filesInNodeModules(`${OUTPUT.fixtures}/server`)).toEqual([]);
});

it("calls Nitro's hooks without a DevTools task each (server/build/untagged-hooks.mjs): hookable is bundled, untagged", () => {
  const dir = `${OUTPUT.fixtures}/server`;
  const code = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".mjs"))
    .map((file) => readFileSync(`${dir}/${file}`, "utf8"))
    .join("\n");
  expect(code).toContain("function serialTaskCaller");
  expect(code).not.toContain("console.createTask");
});
