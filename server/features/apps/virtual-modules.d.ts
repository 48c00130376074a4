/** Generated at build time by module.ts from the ui/ folders (see build-view.ts). */
declare module "#mcp-app-views" {
  export const views: readonly import("./view-resource").BuiltView[];
}
