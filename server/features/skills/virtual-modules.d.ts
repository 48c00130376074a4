/** Generated at build time by module.ts from the skills/ folders (see skill-files.ts). */
declare module "#mcp-skills" {
  export const skills: readonly import("./skill-files").SkillSource[];
}
