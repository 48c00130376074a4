/**
 * The parsed configuration, read once from Nitro's runtime config and the environment.
 * What each setting means, and its default, is declared in `settings.ts`.
 */
import { useRuntimeConfig } from "nitropack/runtime";
import type { CacheHints, Implementation } from "./protocol";
import { SETTINGS, type SettingKey } from "./settings";

type ParsedSettings = { readonly [K in SettingKey]: ReturnType<(typeof SETTINGS)[K]["parse"]> };

export interface McpConfig extends ParsedSettings {
  readonly serverInfo: Implementation;
  readonly listCache: CacheHints;
}

/** Parses raw values (runtime config, overridden by the variables' own text where a setting asks for it). */
export function parseMcpConfig(raw: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>): McpConfig {
  const parsed = {} as Record<SettingKey, unknown>;
  for (const [key, spec] of Object.entries(SETTINGS) as [SettingKey, (typeof SETTINGS)[SettingKey]][]) {
    const value = spec.text && env[spec.env] !== undefined ? env[spec.env] : (raw[key] ?? spec.default);
    parsed[key] = spec.parse(value);
  }
  const settings = parsed as ParsedSettings;
  return {
    ...settings,
    serverInfo: { name: settings.serverName, version: settings.serverVersion },
    listCache: { ttlMs: settings.listTtlMs, cacheScope: "public" },
  };
}

let cached: McpConfig | undefined;

/** The configuration, parsed once per process (Workers populate `process.env` from their vars and secrets). */
export function useMcpConfig(): McpConfig {
  cached ??= parseMcpConfig(useRuntimeConfig().mcp as Record<string, unknown>, process.env);
  return cached;
}
