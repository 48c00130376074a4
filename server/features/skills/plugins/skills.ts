/**
 * The skills extension, when the build has skills: its methods (for 2025-era clients too), its files served as resources
 * (each SKILL.md listed), and its declaration in the capabilities.
 */
import { addMethods, declareCapabilities, declareExtension, serveResources } from "../../../mcp/kit";
import { skillCatalog } from "../skill-catalog";
import { getSkill, listSkills, readDirectory } from "../skill-methods";

/** The extension's name in the capabilities. */
export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";

export default defineNitroPlugin(() => {
  if (!skillCatalog.skills.length) return;
  serveResources({
    find: (uri) => {
      const entry = skillCatalog.files.get(uri);
      return entry && { entry, variables: {} };
    },
    listed: skillCatalog.listed,
  });
  declareCapabilities({ resources: {} });
  addMethods(
    { "skills/list": listSkills, "skills/get": getSkill, "resources/directory/read": readDirectory },
    { adapted: true },
  );
  declareExtension(SKILLS_EXTENSION, { directoryRead: true }, { adapted: true });
});
