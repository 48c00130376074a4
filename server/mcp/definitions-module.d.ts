/** Generated at build time by server/build/definitions-module.ts. */
declare module "#mcp-definitions" {
  export const tools: readonly unknown[];
  export const prompts: readonly unknown[];
  export const resources: readonly unknown[];
}
