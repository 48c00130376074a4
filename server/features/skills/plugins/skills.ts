/** The skills extension, when the build has skills: its methods in both eras, and its declaration in the capabilities. */
import { addMethods, declareExtension } from "../../../mcp/features";
import { EXTENSIONS } from "../../../mcp/protocol";
import { skillCatalog } from "../skill-catalog";
import { getSkill, listSkills, readDirectory } from "../skill-methods";

export default defineNitroPlugin(() => {
  if (!skillCatalog.skills.length) return;
  addMethods(["modern", "legacy"], {
    "skills/list": listSkills,
    "skills/get": getSkill,
    "resources/directory/read": readDirectory,
  });
  declareExtension(["modern", "legacy"], EXTENSIONS.skills, { directoryRead: true });
});
