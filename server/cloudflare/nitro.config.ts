/** The Cloudflare Workers build's configuration: a layer `nitro.config.ts` extends (`extends: ["./server/cloudflare"]`). */
import { readFileSync } from "node:fs";
import { defineNitroConfig } from "nitropack/config";
import { cloudflareModule } from "./module";

const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name: string };
// `npm run build:cloudflare` builds into its own folder, so the Node and Workers builds can coexist.
const cloudflare = (process.env.NITRO_PRESET ?? "").startsWith("cloudflare");

export default defineNitroConfig({
  // The newest date the workerd in wrangler 4.86 (the last release for Node 20) supports.
  compatibilityDate: { cloudflare: "2026-05-01" },
  modules: [cloudflareModule()],
  ...(cloudflare ? { output: { dir: ".output-cloudflare" }, buildDir: ".nitro/output-cloudflare" } : {}),
  cloudflare: {
    deployConfig: true,
    nodeCompat: true,
    wrangler: {
      name: pkg.name,
      // General storage; its id from CLOUDFLARE_KV_NAMESPACE_ID at build time (README.md), any in wrangler dev.
      kv_namespaces: [{ binding: "MCP_KV", id: process.env.CLOUDFLARE_KV_NAMESPACE_ID ?? "local-mcp-kv" }],
      // The atomic operations in a strongly consistent Durable Object with SQLite storage. Nitro's runtime names its class
      // and binding "$DurableObject".
      durable_objects: { bindings: [{ name: "$DurableObject", class_name: "$DurableObject" }] },
      migrations: [{ tag: "v1", new_sqlite_classes: ["$DurableObject"] }],
      observability: { enabled: true },
      // Nitro minifies a Worker: its uploaded source maps keep the stack traces in its logs readable.
      upload_source_maps: true,
    },
  },
});
