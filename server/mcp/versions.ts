/** Protocol versions this server accepts. */
import { MODERN_PROTOCOL_VERSION } from "./protocol";

export const MODERN_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION];

/** Every version a client may use, newest first (as listed in discover and in -32022). */
export function supportedProtocolVersions(): readonly string[] {
  return MODERN_VERSIONS;
}
