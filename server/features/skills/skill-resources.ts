/** Build time adds this module's entries to the registry's resources (see module.ts): every skill file, at its `skill://` URI. */
import { skillCatalog } from "./skill-catalog";

export default skillCatalog.files.map((entry) => [entry, "server/features/skills/skill-resources.ts"] as const);
