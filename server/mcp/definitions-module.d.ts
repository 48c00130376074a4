/** Generated at build time by server/build/definitions-module.ts. */
declare module "#mcp-definitions" {
  export const tools: readonly unknown[];
  export const prompts: readonly unknown[];
  export const resources: readonly unknown[];
}

/** Generated at build time by server/build/storage-module.ts, per preset. */
declare module "#mcp-storage-driver" {
  import type { Driver } from "unstorage";
  export function selectStorageDriver(
    env: Record<string, string | undefined>,
  ): { name: string; shared: boolean; driver: Driver } | undefined;
}
