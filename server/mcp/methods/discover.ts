/** `server/discover`: supported versions, capabilities (derived from what is registered), instructions. */
import { useMcpConfig } from "../config";
import { serverCapabilities, supportedProtocolVersions } from "../registry";
import type { MethodResult } from "./types";

export function discover(): MethodResult {
  const config = useMcpConfig();
  return {
    supportedVersions: supportedProtocolVersions(),
    capabilities: serverCapabilities(),
    ...(config.instructions ? { instructions: config.instructions } : {}),
    ...config.listCache,
  };
}
