/** Build time: the server card's description defaults to package.json's (NITRO_MCP_SERVER_DESCRIPTION overrides it at run time). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Nitro } from "nitropack";

export default (nitro: Nitro) => {
  const pkg = JSON.parse(readFileSync(join(nitro.options.rootDir, "package.json"), "utf8")) as { description?: string };
  const mcp = nitro.options.runtimeConfig.mcp as Record<string, unknown>;
  mcp.serverDescription ||= pkg.description ?? "";
};
