/** Generated at build time by server/build/definitions-module.ts. */
declare module "#mcp-definitions" {
  /** Each file's default export, with the file's path (for error messages). */
  type Definitions = readonly (readonly [definition: unknown, file: string])[];
  export const tools: Definitions;
  export const prompts: Definitions;
  export const resources: Definitions;
}

/** An alias set by server/build/storage-module.ts: server/storage/drivers.node.ts or drivers.cloudflare.ts. */
declare module "#mcp-storage-driver" {
  import type { Driver } from "unstorage";
  export function selectStorageDriver(env: Record<string, string | undefined>): { name: string; driver: Driver } | undefined;
}
