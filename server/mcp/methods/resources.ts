/** `resources/list`, `resources/templates/list` and `resources/read`. */
import type { McpContext } from "../context";
import { ResourceNotFoundError, invalidParams } from "../errors";
import { isInputRequiredOutcome } from "../outcome";
import type { Resource } from "../protocol";
import { registry } from "../registry";
import { listResult } from "./list-result";
import type { MethodResult } from "./types";

const fixedResources = registry.resources.map((entry) => entry.descriptor as Resource);
const templateDescriptors = registry.templates.map((entry) => entry.descriptor);
/** Templates that list their resources at run time may list per caller: keep shared caches out. */
const listScope = registry.templates.some((entry) => entry.list) ? "private" : undefined;

/** Resources are read fresh by default: results may be private to the caller and may change. */
const DEFAULT_READ_CACHE = { ttlMs: 0, cacheScope: "private" } as const;

export async function listResources(mcp: McpContext): Promise<MethodResult> {
  const listed = await Promise.all(registry.templates.map((entry) => entry.list?.(mcp) ?? []));
  return listResult("resources", [...fixedResources, ...listed.flat()], mcp, listScope);
}

export const listResourceTemplates = (mcp: McpContext): MethodResult => listResult("resourceTemplates", templateDescriptors, mcp);

export async function readResource(mcp: McpContext): Promise<MethodResult> {
  if (!mcp.target) throw invalidParams("resources/read requires params.uri (a string)");
  const { name: uri, entry, variables } = mcp.target;
  if (entry?.kind !== "resource") throw new ResourceNotFoundError(uri);
  const result = await entry.read(uri, variables, mcp);
  if (isInputRequiredOutcome(result)) return result;
  return { ...result, ...DEFAULT_READ_CACHE, ...entry.cache };
}
