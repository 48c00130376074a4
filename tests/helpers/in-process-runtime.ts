/**
 * What a Nitro build gives the server at run time, for the in-process test server (`in-process.ts`):
 * the tests' vitest config points `nitropack/runtime`, the auto-imports `useStorage`, `useRuntimeConfig`
 * and `defineNitroPlugin`, and the build's virtual modules `#mcp-definitions`, `#mcp-skills` and `#mcp-stores` here.
 *
 * Each test server loads the server's modules afresh, this one included, and this module reads the
 * setup that `in-process.ts` prepared for that server when it is evaluated: so every test server has its
 * own definitions, configuration and in-memory storage.
 */
import { createStorage, prefixStorage, type Storage } from "unstorage";

/** Where `in-process.ts` leaves the next server's setup (a global: this module is loaded once per server). */
export const SETUP = Symbol.for("mcp-edge-template.in-process-setup");

type Definitions = (readonly [definition: unknown, file: string])[];

export interface ServerSetup {
  /** Nitro's runtime config, with the environment applied the way Nitro applies it. */
  readonly runtimeConfig: Readonly<Record<string, unknown>>;
  /** `#mcp-definitions`: filled once the definition files are loaded, before the registry reads them. */
  readonly definitions: { readonly tools: Definitions; readonly prompts: Definitions; readonly resources: Definitions };
  /** `#mcp-skills`. */
  readonly skills: readonly unknown[];
  /** `#mcp-stores`: the stores of a Node build, each with its ports. */
  readonly stores: unknown[];
  /** The server's log, line by line (`#mcp-platform`'s writers: `in-process-platform.ts`). */
  readonly log?: string[];
}

/**
 * The setup of the server being started (the slot is emptied once it has started). A module of the server imported outside
 * one (a unit test of a store's transport) sees no definitions, may use no configuration, and logs to the process's stdout.
 */
const setup: ServerSetup = (globalThis as { [SETUP]?: ServerSetup })[SETUP] ?? {
  get runtimeConfig(): never {
    throw new Error(
      "tests/helpers/in-process-runtime.ts: no configuration outside createTestServer() (tests/helpers/in-process.ts)",
    );
  },
  definitions: { tools: [], prompts: [], resources: [] },
  skills: [],
  stores: [],
};

const root = createStorage();

/** Nitro's `useStorage`: the server's storage (in memory unless the plugin mounts another driver), or a prefix of it. */
export function useStorage<T extends import("unstorage").StorageValue = import("unstorage").StorageValue>(
  base = "",
): Storage<T> {
  return (base ? prefixStorage<T>(root, base) : root) as Storage<T>;
}

/** Nitro's `useRuntimeConfig`. */
export const useRuntimeConfig = () => setup.runtimeConfig;

/** Nitro's `defineNitroPlugin`: the plugin itself, run by `createTestServer`. */
export const defineNitroPlugin = <T>(plugin: T): T => plugin;

export const { tools, prompts, resources } = setup.definitions;
export const skills = setup.skills;
export const stores = setup.stores;
export const serverLog = setup.log;
