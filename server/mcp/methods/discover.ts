/** `server/discover`: supported versions, capabilities (derived from what is registered), instructions. */
import { useMcpConfig } from "../config";
import { serverCapabilities } from "../registry";
import { supportedProtocolVersions } from "../request-meta";
import type { MethodResult } from "./types";

export function discover(): MethodResult {
  const config = useMcpConfig();
  return {
    supportedVersions: supportedProtocolVersions(),
    capabilities: serverCapabilities("modern"),
    ...(config.instructions ? { instructions: config.instructions } : {}),
    ...config.listCache,
  };
}
