/** `server/discover`: supported versions, capabilities (derived from what is registered), instructions. */
import { useMcpConfig } from "../config";
import { registry } from "../registry";
import { supportedProtocolVersions } from "../versions";
import type { MethodResult } from "./types";

export function discover(): MethodResult {
  const config = useMcpConfig();
  return {
    supportedVersions: supportedProtocolVersions(),
    capabilities: registry.capabilities,
    ...(config.instructions ? { instructions: config.instructions } : {}),
    ...config.listCache,
  };
}
