/**
 * Build time: the `skills/` folders of the definition roots (`server/skills`, and a test build's fixtures) become
 * `#mcp-skills` (read and checked by skill-files.ts), which the plugin serves.
 */
import { join } from "node:path";
import type { Nitro } from "nitropack";
import { definitionRoots } from "../../build/definitions-module";
import { watchForReload } from "../../build/dev/watch-for-reload";
import { readSkills } from "./skill-files";

export default (nitro: Nitro) => {
  const dirs = definitionRoots(nitro).map((root) => join(root, "skills"));
  nitro.options.virtual["#mcp-skills"] = () =>
    `export const skills = ${JSON.stringify(dirs.flatMap((dir) => readSkills(dir)))};`;
  watchForReload(nitro, dirs, true);
};
