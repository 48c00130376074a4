/** `skills/list`, `skills/get` and `resources/directory/read` (the skills extension). */
import { skillCatalog } from "./skill-catalog";
import {
  clip,
  invalidParams,
  listResult,
  paginate,
  useMcpConfig,
  type McpContext,
  type MethodResult,
} from "../../mcp/kit";

/** Skills change only with a deploy. */
const cacheHints = () => ({ ttlMs: useMcpConfig().listCache.ttlMs, cacheScope: "public" as const });

export const listSkills = (mcp: McpContext): MethodResult => listResult("skills", skillCatalog.skills, mcp);

export function getSkill(mcp: McpContext): MethodResult {
  const uri = mcp.params.uri;
  if (typeof uri !== "string") throw invalidParams("skills/get requires params.uri (a string)");
  const skill = skillCatalog.bySkillUri.get(uri);
  if (!skill) throw invalidParams(`No skill is served at ${clip(uri)}`, { uri: clip(uri, 2048) });
  return { skill, ...cacheHints() };
}

/** The direct children of a folder of a skill: files, and folders as `inode/directory`. */
export function readDirectory(mcp: McpContext): MethodResult {
  const uri = mcp.params.uri;
  if (typeof uri !== "string") throw invalidParams("resources/directory/read requires params.uri (a string)");
  const children = skillCatalog.directories.get(uri);
  if (!children) throw invalidParams(`Not a directory: ${clip(uri)}`, { uri: clip(uri, 2048) });
  const page = paginate(children, mcp.params.cursor, useMcpConfig().pageSize, "directory");
  return { resources: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}), ...cacheHints() };
}
