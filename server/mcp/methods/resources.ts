/** `resources/list`, `resources/templates/list` and `resources/read`. */
import { useMcpConfig } from "../config";
import type { McpContext } from "../context";
import { invalidParams } from "../errors";
import { isInputRequiredOutcome } from "../input-required";
import { paginate } from "../pagination";
import type { Resource } from "../protocol";
import { registry } from "../registry";
import type { MethodResult } from "./types";

const fixedResources = registry.resources.map((entry) => entry.descriptor as Resource);
const templateDescriptors = registry.templates.map((entry) => entry.descriptor);

/** Resources are read fresh by default: results may be private to the caller and may change. */
const DEFAULT_READ_CACHE = { ttlMs: 0, cacheScope: "private" } as const;

export async function listResources(mcp: McpContext): Promise<MethodResult> {
  const config = useMcpConfig();
  const listed = await Promise.all(registry.templates.map((entry) => entry.list?.(mcp) ?? []));
  const all = [...fixedResources, ...listed.flat()];
  const page = paginate(all, mcp.params.cursor, config.pageSize, "resources");
  return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...config.listCache };
}

export function listResourceTemplates(mcp: McpContext): MethodResult {
  const config = useMcpConfig();
  const page = paginate(templateDescriptors, mcp.params.cursor, config.pageSize, "templates");
  return {
    resourceTemplates: page.items,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    ...config.listCache,
  };
}

/** The entry a `resources/read` URI belongs to; -32602 with `data.uri` when there is none. */
export function requireResource(uri: unknown) {
  if (typeof uri !== "string") throw invalidParams("resources/read requires params.uri (a string)");
  const found = registry.findResource(uri);
  if (!found) throw invalidParams(`Resource not found: ${uri}`, { uri });
  return found;
}

export async function readResource(mcp: McpContext): Promise<MethodResult> {
  const uri = mcp.params.uri as string;
  const { entry, variables } = requireResource(uri);
  const result = await entry.read(uri, variables, mcp);
  if (isInputRequiredOutcome(result)) return result;
  return { ...result, ...DEFAULT_READ_CACHE, ...entry.cache };
}
