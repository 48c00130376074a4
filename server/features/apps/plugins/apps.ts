/**
 * The MCP Apps extension (`io.modelcontextprotocol/ui`), declared in both eras when the build serves a UI; a tool linked
 * to a UI the build does not serve stops the start-up (hosts would show an empty frame).
 */
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { declareExtension } from "../../../mcp/features";
import { registry } from "../../../mcp/registry";

export default defineNitroPlugin(() => {
  const served = new Set(
    registry.resources
      .filter((entry) => entry.descriptor.mimeType === RESOURCE_MIME_TYPE)
      .map((entry) => ("uri" in entry.descriptor ? entry.descriptor.uri : "")),
  );
  if (!served.size) return;
  for (const tool of registry.tools) {
    const uri = (tool.descriptor._meta?.ui as { resourceUri?: unknown } | undefined)?.resourceUri;
    if (uri !== undefined && !served.has(uri as string))
      throw new Error(
        `Tool "${tool.descriptor.name}" links the UI ${uri}, which this build does not serve (its UIs: ${[...served].join(", ")}): add the folder under ui/, or fix the name`,
      );
  }
  declareExtension(["modern", "legacy"], EXTENSION_ID, {});
});
