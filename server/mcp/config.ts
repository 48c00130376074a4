/** The configuration, parsed once from Nitro's runtime config and the environment (each setting: `settings.ts`). */
import { useRuntimeConfig } from "nitropack/runtime";
import type { CacheHints, Implementation } from "./protocol";
import { SETTINGS, type SettingTable } from "./settings";

export type ParsedSettings<Table extends SettingTable> = { readonly [K in keyof Table]: ReturnType<Table[K]["parse"]> };

function parseSettings<Table extends SettingTable>(
  table: Table,
  raw: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): ParsedSettings<Table> {
  const parsed: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(table)) {
    const value = spec.text && env[spec.env] !== undefined ? env[spec.env] : (raw[key] ?? spec.default);
    parsed[key] = spec.parse(value);
  }
  return parsed as ParsedSettings<Table>;
}

export interface McpConfig extends ParsedSettings<typeof SETTINGS> {
  readonly serverInfo: Implementation;
  readonly listCache: CacheHints;
}

/** Parses raw values (runtime config, overridden by the variables' own text where a setting asks for it). */
export function parseMcpConfig(
  raw: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
): McpConfig {
  const settings = parseSettings(SETTINGS, raw, env);
  return {
    ...settings,
    serverInfo: { name: settings.serverName, version: settings.serverVersion },
    listCache: { ttlMs: settings.listTtlMs, cacheScope: "public" },
  };
}

let cached: McpConfig | undefined;

/**
 * The configuration, parsed once per process (Workers populate `process.env` from their vars and secrets).
 * @example const { pageSize, serverInfo } = useMcpConfig();
 */
export function useMcpConfig(): McpConfig {
  cached ??= parseMcpConfig(useRuntimeConfig().mcp as Record<string, unknown>, process.env);
  return cached;
}

/**
 * A feature's own settings (its `settings.ts` table), parsed from the same runtime config, once per table.
 * @example const { taskMaxActive } = useSettings(SETTINGS); // SETTINGS: the feature's settings.ts
 */
export function useSettings<Table extends SettingTable>(table: Table): ParsedSettings<Table> {
  let parsed = parsedTables.get(table);
  if (!parsed) {
    parsed = parseSettings(table, useRuntimeConfig().mcp as Record<string, unknown>, process.env);
    parsedTables.set(table, parsed);
  }
  return parsed as ParsedSettings<Table>;
}

const parsedTables = new WeakMap<SettingTable, unknown>();
