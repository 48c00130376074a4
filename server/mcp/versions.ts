/**
 * Protocol versions and eras.
 *
 * A request carrying the 2026-07-28 `_meta` is modern. `initialize` opens the legacy era;
 * later legacy requests are recognised by their `MCP-Protocol-Version` header, and a
 * request with neither header nor modern `_meta` is taken as 2025-03-26, as those
 * revisions allow. The legacy era exists only when a feature serves it (server/features/legacy).
 */
import type { Era } from "./context";
import { unsupportedProtocolVersion } from "./errors";
import { useLegacyEra } from "./features";
import type { JsonRpcRequest } from "./jsonrpc";
import { MODERN_PROTOCOL_VERSION } from "./protocol";
import { hasModernMeta } from "./request-meta";

const MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];
/** Newest first: `initialize` falls back to the first one when the client asks for a version we do not know. */
const LEGACY_VERSIONS: readonly string[] = ["2025-11-25", "2025-06-18", "2025-03-26"];
/** What a legacy request without `MCP-Protocol-Version` is taken to be. */
const HEADERLESS_LEGACY_VERSION = "2025-03-26";

/** Every version a client may use, newest first (as listed in discover and in -32022). */
export function supportedProtocolVersions(): readonly string[] {
  return useLegacyEra() ? [...MODERN_VERSIONS, ...LEGACY_VERSIONS] : MODERN_VERSIONS;
}

export type EraSelection = { era: "modern" } | { era: Extract<Era, "legacy">; version: string };

/** The version `initialize` answers with: the requested one if we speak it, else our latest legacy one. */
function negotiateLegacyVersion(requested: unknown): string {
  return typeof requested === "string" && LEGACY_VERSIONS.includes(requested) ? requested : LEGACY_VERSIONS[0]!;
}

/** A request with the 2026-07-28 envelope must name a version of that era. Throws -32022 (400) otherwise. */
export function requireModernVersion(requested: string): void {
  if (MODERN_VERSIONS.includes(requested)) return;
  const message = LEGACY_VERSIONS.includes(requested)
    ? `Protocol version ${requested} is served through initialize, without the per-request _meta envelope`
    : "Unsupported protocol version";
  throw unsupportedProtocolVersion(requested, supportedProtocolVersions(), message);
}

/** Which era serves this request. Throws -32022 (400) for a version header nobody here speaks. */
export function selectEra(message: JsonRpcRequest, versionHeader: string | undefined): EraSelection {
  if (hasModernMeta(message.params)) return { era: "modern" };
  if (!useLegacyEra()) {
    // A 2026-only server names the versions it speaks: legacy clients have no other way to find out.
    if (message.method === "initialize") {
      const requested = String(message.params.protocolVersion ?? "(none)");
      throw unsupportedProtocolVersion(requested, MODERN_VERSIONS, `Unsupported protocol version ${requested}: this server speaks MCP ${MODERN_VERSIONS.join(", ")} only`);
    }
    return { era: "modern" };
  }
  if (message.method === "initialize") return { era: "legacy", version: negotiateLegacyVersion(message.params.protocolVersion) };
  const header = versionHeader?.trim();
  if (header === undefined) return { era: "legacy", version: HEADERLESS_LEGACY_VERSION };
  if (LEGACY_VERSIONS.includes(header)) return { era: "legacy", version: header };
  if (MODERN_VERSIONS.includes(header)) return { era: "modern" };
  throw unsupportedProtocolVersion(header, supportedProtocolVersions());
}
