import { readFileSync } from "node:fs";
import { defineNitroConfig } from "nitropack/config";
import { mcpDefinitionsModule } from "./server/build/definitions-module";
import { mcpStorageModule } from "./server/build/storage-module";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

// `MCP_FIXTURES=conformance nitropack build` adds the test fixtures (the conformance suite's in
// tests/conformance/fixtures, the template's own in tests/fixtures) to a separate output folder.
// A normal build or `npm run dev` never contains them.
const withConformanceFixtures = process.env.MCP_FIXTURES === "conformance";
// Each target builds into its own folder, so the Node, Workers and Vercel builds can coexist.
const target = process.env.NITRO_PRESET ?? "";
const outputDir = withConformanceFixtures
  ? ".output-conformance"
  : target.startsWith("cloudflare")
    ? ".output-cloudflare"
    : undefined;

export default defineNitroConfig({
  // Workers: the newest date the workerd in wrangler 4.86 (the last release for Node 20) supports.
  compatibilityDate: { default: "2026-07-28", cloudflare: "2026-05-01" },
  srcDir: ".",
  scanDirs: ["server"],
  modules: [
    mcpDefinitionsModule(withConformanceFixtures ? ["server", "tests/conformance/fixtures", "tests/fixtures"] : ["server"]),
    mcpStorageModule(),
  ],
  ...(outputDir ? { output: { dir: outputDir }, buildDir: `.nitro/${outputDir.slice(1)}` } : {}),
  cloudflare: {
    deployConfig: true,
    nodeCompat: true,
    wrangler: {
      name: "mcp-edge-template",
      // Storage for notes and single-use records. `npx wrangler kv namespace create MCP_KV` prints the id;
      // build with CLOUDFLARE_KV_NAMESPACE_ID set to it. Locally (wrangler dev) any id works.
      kv_namespaces: [{ binding: "MCP_KV", id: process.env.CLOUDFLARE_KV_NAMESPACE_ID ?? "local-mcp-kv" }],
      observability: { enabled: true },
    },
  },
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
      legacy: true,
    },
  },
  typescript: { strict: true },
});
