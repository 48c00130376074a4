/**
 * The UIs this server serves: the views its build made from the `ui/` folders (served here, besides the definitions),
 * and any resource a definition serves with the MCP App MIME type (a UI written by hand, or a test's fixture).
 */
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { declareCapabilities, registry, serveResources, type Resource, type ResourceEntry } from "../../mcp/kit";

const uriOf = (entry: ResourceEntry): string => (entry.descriptor as Resource).uri;

/** The build's views, by URI. */
const views = new Map<string, ResourceEntry>();

/** Serves the build's views: each listed by `resources/list` and read at its `ui://` URI. */
export function serveViews(entries: readonly ResourceEntry[]): void {
  for (const entry of entries) {
    if (registry().findResource(uriOf(entry)))
      throw new Error(`${uriOf(entry)} is both a folder of ui/ and a resource definition: rename one of them`);
    views.set(uriOf(entry), entry);
  }
  if (!views.size) return;
  serveResources({
    find: (uri) => {
      const entry = views.get(uri);
      return entry && { entry, variables: {} };
    },
    listed: [...views.values()].map((entry) => entry.descriptor as Resource),
  });
  declareCapabilities({ resources: {} });
}

/** The URIs of every UI served: the build's views, and the resources defined with the MCP App MIME type. */
export function servedUis(): ReadonlySet<string> {
  const defined = registry().resources.filter((entry) => entry.descriptor.mimeType === RESOURCE_MIME_TYPE);
  return new Set([...views.keys(), ...defined.map(uriOf)]);
}
