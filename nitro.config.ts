import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineNitroConfig } from "nitropack/config";
import { mcpDefinitionsModule } from "./server/build/definitions-module";
import { featureDirs, mcpFeaturesModule } from "./server/build/features-module";
import { mcpPlatformModule } from "./server/build/platform-module";
import { mcpStoresModule } from "./server/build/stores-module";
import { untaggedHooks } from "./server/build/untagged-hooks.mjs";
import { SETTINGS, settingDefaults } from "./server/mcp/settings";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  name: string;
  version: string;
};

export default defineNitroConfig({
  extends: ["./server/cloudflare"],
  compatibilityDate: { default: "2026-07-28" },
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
    "./server/build/dev/start-up-errors",
    (nitro) => {
      nitro.options.noExternals ||= !nitro.options.dev;
    },
  ],
  // Node 20 and every edge runtime run ES2022 as it is: native class fields, not a helper call per field per object.
  esbuild: { options: { target: "es2022" } },
  rollupConfig: {
    plugins: [untaggedHooks],
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
    // The type-checker sees Node's variant of `#mcp-platform` (server/build/platform-module.ts); a platform's own exports the same names.
    tsConfig: {
      compilerOptions: {
        paths: {
          "#mcp-platform": ["../../server/mcp/platform/node.ts"],
        },
      },
    },
  },
});
