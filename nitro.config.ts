import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineNitroConfig } from "nitropack/config";
import { mcpDefinitionsModule } from "./server/build/definitions-module";
import { featureDirs, mcpFeaturesModule } from "./server/build/features-module";
import { mcpPlatformModule } from "./server/build/platform-module";
import { mcpStoresModule } from "./server/build/stores-module";
import { SETTINGS, settingDefaults } from "./server/mcp/settings";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

// `npm run build:cloudflare` builds into its own folder, so the Node and Workers builds can coexist.
const cloudflare = (process.env.NITRO_PRESET ?? "").startsWith("cloudflare");

export default defineNitroConfig({
  // Workers: the newest date the workerd in wrangler 4.86 (the last release for Node 20) supports.
  compatibilityDate: { default: "2026-07-28", cloudflare: "2026-05-01" },
  srcDir: ".",
  // Each optional feature (server/features/<name>) is a scan dir, so its routes, plugins and definitions go with its folder.
  scanDirs: ["server", ...featureDirs(fileURLToPath(new URL(".", import.meta.url)))],
  // A build bundles every dependency, none traced into node_modules: loading zod's and jose's 170 files took ~90 ms of a cold
  // start. `nitropack dev` keeps them external: bundling them made each reload about 4 s slower.
  modules: [
    mcpDefinitionsModule(),
    mcpPlatformModule(),
    mcpStoresModule(),
    mcpFeaturesModule(),
    (nitro) => {
      nitro.options.noExternals ||= !nitro.options.dev;
    },
  ],
  ...(cloudflare ? { output: { dir: ".output-cloudflare" }, buildDir: ".nitro/output-cloudflare" } : {}),
  cloudflare: {
    deployConfig: true,
    nodeCompat: true,
    wrangler: {
      name: pkg.name,
      // General storage; its id from CLOUDFLARE_KV_NAMESPACE_ID at build time (server/build/README.md), any in wrangler dev.
      kv_namespaces: [{ binding: "MCP_KV", id: process.env.CLOUDFLARE_KV_NAMESPACE_ID ?? "local-mcp-kv" }],
      // The atomic operations (single-use claims, tasks; with the message bus feature, one object per channel) in a
      // strongly consistent Durable Object with SQLite storage. Nitro's runtime names its class and binding "$DurableObject".
      durable_objects: { bindings: [{ name: "$DurableObject", class_name: "$DurableObject" }] },
      migrations: [{ tag: "v1", new_sqlite_classes: ["$DurableObject"] }],
      observability: { enabled: true },
      // Nitro minifies a Worker: its uploaded source maps keep the stack traces in its logs readable.
      upload_source_maps: true,
    },
  },
  rollupConfig: {
    // Replaces Nitro's filter, so keeps it (circular deps, eval, source maps), muting zod 4.6's comments that Rollup takes for annotations.
    onwarn(warning, warn) {
      const muted =
        ["CIRCULAR_DEPENDENCY", "EVAL"].includes(warning.code ?? "") ||
        warning.message.includes("Unsupported source map comment") ||
        (warning.code === "INVALID_ANNOTATION" && warning.id?.includes("/node_modules/zod/"));
      if (!muted) warn(warning);
    },
  },
  // Each setting (server/mcp/settings.ts) has a NITRO_MCP_* run-time override. Never put a secret or a connection URL here: it is bundled.
  runtimeConfig: {
    mcp: { ...settingDefaults(SETTINGS), serverName: pkg.name, serverVersion: pkg.version },
  },
  typescript: {
    strict: true,
    // The type-checker sees the Node variant of each platform alias (server/build/platform-module.ts); both variants export the same names.
    tsConfig: {
      compilerOptions: {
        paths: {
          "#mcp-state-cipher": ["../../server/mcp/state/cipher.node.ts"],
        },
      },
    },
  },
});
