import { readdirSync } from "node:fs";
import { expect, it } from "vitest";
import { OUTPUT, startServer } from "../helpers/server.mjs";
import { describeTarget } from "./suite";

describeTarget("Node build (npm run build)", () => startServer());

it("the Node and Vercel builds bundle their dependencies: no node_modules whose hundreds of files each cold start would load (nitro.config.ts)", () => {
  for (const server of [`${OUTPUT.fixtures}/server`, `${OUTPUT.vercel}/functions`]) {
    const files = readdirSync(server, { recursive: true, encoding: "utf8" });
    expect(files.some((file) => file.endsWith("index.mjs")), server).toBe(true);
    expect(files.filter((file) => file.split("/").includes("node_modules")), server).toEqual([]);
  }
});
