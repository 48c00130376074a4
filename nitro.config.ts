import { readFileSync } from "node:fs";
import { defineNitroConfig } from "nitropack/config";
import { mcpDefinitionsModule } from "./server/build/definitions-module";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

// `MCP_FIXTURES=conformance nitropack build` adds the conformance-suite fixtures
// (tests/conformance/fixtures) to a separate output folder. A normal build or
// `npm run dev` never contains them.
const withConformanceFixtures = process.env.MCP_FIXTURES === "conformance";

export default defineNitroConfig({
  compatibilityDate: "2026-07-28",
  srcDir: ".",
  scanDirs: ["server"],
  modules: [
    mcpDefinitionsModule(withConformanceFixtures ? ["server", "tests/conformance/fixtures"] : ["server"]),
  ],
  ...(withConformanceFixtures ? { output: { dir: ".output-conformance" }, buildDir: ".nitro/conformance" } : {}),
  // Every key here can be overridden at run time by an env var: mcp.stateSecret ← NITRO_MCP_STATE_SECRET.
  // Never put a secret or a connection URL in this file: it is baked into the bundle.
  runtimeConfig: {
    mcp: {
      serverName: pkg.name,
      serverVersion: pkg.version,
      instructions: "",
      stateSecret: "",
      stateSecretPrevious: "",
      stateTtlSeconds: 600,
      stateMaxLength: 16384,
      authTokens: "",
      allowedOrigins: "",
      allowedHosts: "",
      maxBodyBytes: 1048576,
      pageSize: 50,
      listTtlMs: 60000,
      listenMaxSeconds: 300,
      legacy: true,
    },
  },
  typescript: { strict: true },
});
