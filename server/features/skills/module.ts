/**
 * Build time: the `skills/` folders of the definition roots (`server/skills`, and a test build's fixtures) become
 * `#mcp-skills` (read and checked by skill-files.ts), and every skill file joins the registry's resources.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Nitro } from "nitropack";
import { addResourceModule, definitionRoots, watchForReload } from "../../build/definitions-module";
import { readSkills } from "./skill-files";

export default (nitro: Nitro) => {
  const dirs = definitionRoots(nitro).map((root) => join(root, "skills"));
  nitro.options.virtual["#mcp-skills"] = () =>
    `export const skills = ${JSON.stringify(dirs.flatMap((dir) => readSkills(dir)))};`;
  addResourceModule(nitro, fileURLToPath(new URL("skill-resources.ts", import.meta.url)));
  watchForReload(nitro, dirs, true);
};
