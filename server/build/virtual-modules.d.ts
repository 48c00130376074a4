/** Generated at build time by server/build/definitions-module.ts. */
declare module "#mcp-definitions" {
  /** Each file's default export, with the file's path (for error messages). */
  type Definitions = readonly (readonly [definition: unknown, file: string])[];
  export const tools: Definitions;
  export const prompts: Definitions;
  export const resources: Definitions;
}

/** Generated at build time by server/build/definitions-module.ts from the skills/ folders (see skill-files.ts). */
declare module "#mcp-skills" {
  export const skills: readonly import("./skill-files").SkillSource[];
}
