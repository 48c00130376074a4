/** Build time: this feature's settings join `runtimeConfig.mcp`, so their NITRO_MCP_* variables apply. */
import type { Nitro } from "nitropack";
import { settingDefaults } from "../../mcp/settings";
import { SETTINGS } from "./settings";

export default (nitro: Nitro) => {
  nitro.options.runtimeConfig.mcp = { ...settingDefaults(SETTINGS), ...nitro.options.runtimeConfig.mcp };
};
