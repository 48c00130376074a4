/** The shape every list method answers with: one page under its key, `nextCursor`, caching hints. */
import { useMcpConfig } from "../config";
import type { McpContext } from "../context";
import { paginate } from "../pagination";
import type { CacheScope } from "../protocol";
import type { MethodResult } from "./types";

export function listResult(key: string, items: readonly unknown[], mcp: McpContext, cacheScope?: CacheScope): MethodResult {
  const config = useMcpConfig();
  const page = paginate(items, mcp.params.cursor, config.pageSize, key);
  return {
    [key]: page.items,
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
    ...config.listCache,
    ...(cacheScope ? { cacheScope } : {}),
  };
}
