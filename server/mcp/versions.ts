/**
 * Protocol versions and eras.
 *
 * A request carrying the 2026-07-28 `_meta` is modern. Any other request belongs to the legacy era
 * when a feature serves it (`serveLegacyEra` in features.ts), which then picks its version; without
 * it, `initialize` is refused with -32022 and every other request is read as a 2026-07-28 one.
 */
import type { Era } from "./context";
import { unsupportedProtocolVersion } from "./errors";
import { useLegacyEra } from "./features";
import type { JsonRpcRequest } from "./jsonrpc";
import { MODERN_PROTOCOL_VERSION } from "./protocol";
import { hasModernMeta } from "./request-meta";

const MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** Every version a client may use, newest first (as listed in discover and in -32022). */
export function supportedProtocolVersions(): readonly string[] {
  return [...MODERN_VERSIONS, ...(useLegacyEra()?.versions ?? [])];
}

export type EraSelection = { era: "modern" } | { era: Extract<Era, "legacy">; version: string };

/** A request with the 2026-07-28 envelope must name a version of that era. Throws -32022 (400) otherwise. */
export function requireModernVersion(requested: string): void {
  if (MODERN_VERSIONS.includes(requested)) return;
  const message = useLegacyEra()?.versions.includes(requested)
    ? `Protocol version ${requested} is served through initialize, without the per-request _meta envelope`
    : "Unsupported protocol version";
  throw unsupportedProtocolVersion(requested, supportedProtocolVersions(), message);
}

/** Which era serves this request. Throws -32022 (400) for a version nobody here speaks. */
export function selectEra(message: JsonRpcRequest, versionHeader: string | undefined): EraSelection {
  if (hasModernMeta(message.params)) return { era: "modern" };
  const legacy = useLegacyEra();
  if (legacy) return legacy.selectEra(message, versionHeader);
  // A 2026-only server names the versions it speaks: legacy clients have no other way to find out.
  if (message.method === "initialize") {
    const requested = String(message.params.protocolVersion ?? "(none)");
    throw unsupportedProtocolVersion(requested, MODERN_VERSIONS, `Unsupported protocol version ${requested}: this server speaks MCP ${MODERN_VERSIONS.join(", ")} only`);
  }
  return { era: "modern" };
}
