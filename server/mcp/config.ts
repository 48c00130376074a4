/** The configuration, parsed once from Nitro's runtime config and the environment (each setting: `settings.ts`). */
import { useRuntimeConfig } from "nitropack/runtime";
import type { CacheHints, Implementation } from "./protocol";
import { SETTINGS, type SettingTable } from "./settings";

export type ParsedSettings<Table extends SettingTable> = { readonly [K in keyof Table]: ReturnType<Table[K]["parse"]> };

export interface McpConfig extends ParsedSettings<typeof SETTINGS> {
  readonly serverInfo: Implementation;
  readonly listCache: CacheHints;
}

const parsedTables = new WeakMap<SettingTable, unknown>();

/**
 * A settings table (the core's, or a feature's `settings.ts`) parsed from the runtime config, overridden by the variables'
 * own text where a setting asks for it; once per table.
 * @example const { taskMaxActive } = useSettings(SETTINGS); // SETTINGS: the feature's settings.ts
 */
export function useSettings<Table extends SettingTable>(table: Table): ParsedSettings<Table> {
  let parsed = parsedTables.get(table) as Record<string, unknown> | undefined;
  if (!parsed) {
    const raw = useRuntimeConfig().mcp as Record<string, unknown>;
    parsed = {};
    for (const [key, spec] of Object.entries(table)) {
      const value = (spec.text ? process.env[spec.env] : undefined) ?? raw[key] ?? spec.default;
      parsed[key] = spec.parse(value, spec.env);
    }
    parsedTables.set(table, parsed);
  }
  return parsed as ParsedSettings<Table>;
}

let cached: McpConfig | undefined;

/**
 * The configuration, parsed once per process (edge platforms populate `process.env` from their variables and secrets).
 * @example const { pageSize, serverInfo } = useMcpConfig();
 */
export function useMcpConfig(): McpConfig {
  if (!cached) {
    const settings = useSettings(SETTINGS);
    cached = {
      ...settings,
      serverInfo: { name: settings.serverName, version: settings.serverVersion },
      listCache: { ttlMs: settings.listTtlMs, cacheScope: "public" },
    };
  }
  return cached;
}
