/**
 * Typed server configuration, read once from Nitro's runtime config.
 *
 * Every value can be set with an environment variable at run time
 * (`mcp.stateSecret` ← `NITRO_MCP_STATE_SECRET`); see `.env.example`.
 */
import { useRuntimeConfig } from "nitropack/runtime";
import type { CacheHints, Implementation } from "./protocol";

export interface McpConfig {
  readonly serverInfo: Implementation;
  readonly instructions: string | undefined;
  readonly stateSecret: string;
  readonly stateSecretPrevious: readonly string[];
  readonly stateTtlSeconds: number;
  readonly stateMaxLength: number;
  /** `principal:token` pairs; empty means no authentication. */
  readonly authTokens: readonly { principal: string; token: string }[];
  readonly allowedOrigins: readonly string[];
  readonly allowedHosts: readonly string[];
  readonly maxBodyBytes: number;
  readonly pageSize: number;
  readonly listCache: CacheHints;
  /** Serve 2025-11-25, 2025-06-18 and 2025-03-26 clients too (the dual-era endpoint). */
  readonly legacy: boolean;
}

interface RawMcpConfig {
  serverName: string;
  serverVersion: string;
  instructions: string;
  stateSecret: string;
  stateSecretPrevious: string;
  stateTtlSeconds: number | string;
  stateMaxLength: number | string;
  authTokens: string;
  allowedOrigins: string;
  allowedHosts: string;
  maxBodyBytes: number | string;
  pageSize: number | string;
  listTtlMs: number | string;
  legacy: boolean | string;
}

/** Comma-separated list; values are trimmed and empty entries dropped. */
const list = (value: unknown): string[] =>
  String(value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);

function positiveInteger(value: unknown, name: string, min = 1): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min) throw new Error(`${name} must be an integer >= ${min}, got "${value}"`);
  return number;
}

function parseAuthTokens(value: unknown): McpConfig["authTokens"] {
  return list(value).map((pair) => {
    const separator = pair.indexOf(":");
    const principal = pair.slice(0, separator).trim();
    const token = pair.slice(separator + 1).trim();
    // Name the position, never the value: this message may reach a log.
    if (separator <= 0 || !token) throw new Error("NITRO_MCP_AUTH_TOKENS entries must look like principal:token");
    return { principal, token };
  });
}

function parseMcpConfig(raw: RawMcpConfig): McpConfig {
  return {
    serverInfo: { name: raw.serverName, version: String(raw.serverVersion) },
    instructions: raw.instructions || undefined,
    stateSecret: String(raw.stateSecret ?? ""),
    stateSecretPrevious: list(raw.stateSecretPrevious),
    stateTtlSeconds: positiveInteger(raw.stateTtlSeconds, "NITRO_MCP_STATE_TTL_SECONDS"),
    stateMaxLength: positiveInteger(raw.stateMaxLength, "NITRO_MCP_STATE_MAX_LENGTH", 256),
    authTokens: parseAuthTokens(raw.authTokens),
    allowedOrigins: list(raw.allowedOrigins).map((origin) => origin.toLowerCase().replace(/\/$/, "")),
    allowedHosts: list(raw.allowedHosts).map((host) => host.toLowerCase()),
    maxBodyBytes: positiveInteger(raw.maxBodyBytes, "NITRO_MCP_MAX_BODY_BYTES", 1024),
    pageSize: positiveInteger(raw.pageSize, "NITRO_MCP_PAGE_SIZE"),
    listCache: { ttlMs: positiveInteger(raw.listTtlMs, "NITRO_MCP_LIST_TTL_MS", 0), cacheScope: "public" },
    legacy: raw.legacy !== false && raw.legacy !== "false",
  };
}

/**
 * Nitro runs env values through `destr`, which turns "1.0" into 1 and an all-digit secret
 * into an imprecise number. Settings that must stay text are read from the variable itself.
 */
const TEXT_SETTINGS = {
  serverName: "NITRO_MCP_SERVER_NAME",
  serverVersion: "NITRO_MCP_SERVER_VERSION",
  instructions: "NITRO_MCP_INSTRUCTIONS",
  stateSecret: "NITRO_MCP_STATE_SECRET",
  stateSecretPrevious: "NITRO_MCP_STATE_SECRET_PREVIOUS",
  authTokens: "NITRO_MCP_AUTH_TOKENS",
} as const;

let cached: McpConfig | undefined;

/** The configuration, parsed once (Workers populate `process.env` from their vars and secrets). */
export function useMcpConfig(): McpConfig {
  if (!cached) {
    const raw = { ...(useRuntimeConfig().mcp as RawMcpConfig) };
    for (const [key, variable] of Object.entries(TEXT_SETTINGS)) {
      const text = process.env[variable];
      if (text !== undefined) raw[key as keyof typeof TEXT_SETTINGS] = text;
    }
    cached = parseMcpConfig(raw);
  }
  return cached;
}
