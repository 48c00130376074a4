/** Every tool, prompt and resource found at build time (`#mcp-definitions`), indexed once at start-up, and their capabilities. */
import { prompts as promptModules, resources as resourceModules, tools as toolModules } from "#mcp-definitions";
import type { Era } from "./context";
import { isEntry, type Entry, type PromptEntry, type ResourceEntry, type ToolEntry } from "./entries";
import { useMessageBus } from "./bus";
import { declaredExtensions, offersResourceSubscriptions } from "./features";
import type { ServerCapabilities } from "./protocol";

export interface Registry {
  /** In deterministic (name) order. */
  readonly tools: readonly ToolEntry[];
  readonly prompts: readonly PromptEntry[];
  /** Fixed resources listed in `resources/list`, by URI order (not those marked `unlisted`). */
  readonly resources: readonly ResourceEntry[];
  readonly templates: readonly ResourceEntry[];
  readonly all: readonly Entry[];
  readonly toolsByName: ReadonlyMap<string, ToolEntry>;
  readonly promptsByName: ReadonlyMap<string, PromptEntry>;
  /** The capabilities of what is registered; `serverCapabilities` adds the extensions features declared. */
  readonly capabilities: ServerCapabilities;
  /** The resource a URI belongs to: a fixed resource first, then the first matching template. */
  findResource(uri: string): { entry: ResourceEntry; variables: Readonly<Record<string, string>> } | undefined;
  findTemplate(uriTemplate: string): ResourceEntry | undefined;
}

type Definitions = readonly (readonly [definition: unknown, file: string])[];

function entries<K extends Entry["kind"]>(definitions: Definitions, kind: K): Extract<Entry, { kind: K }>[] {
  return definitions.map(([definition, file]) => {
    if (!isEntry(definition) || definition.kind !== kind)
      throw new Error(`${file} must default-export define${kind[0]!.toUpperCase()}${kind.slice(1)}(...)`);
    return definition as Extract<Entry, { kind: K }>;
  });
}

function indexBy<T>(items: readonly T[], keyOf: (item: T) => string, what: string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (map.has(key)) throw new Error(`Duplicate ${what} "${key}"`);
    map.set(key, item);
  }
  return map;
}

const byKey =
  <T>(keyOf: (item: T) => string) =>
  (a: T, b: T) =>
    keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0;
const uriOf = (entry: ResourceEntry) =>
  "uri" in entry.descriptor ? entry.descriptor.uri : entry.descriptor.uriTemplate;

function buildRegistry(modules: { tools: Definitions; prompts: Definitions; resources: Definitions }): Registry {
  const tools = entries(modules.tools, "tool").sort(byKey((tool) => tool.descriptor.name));
  const prompts = entries(modules.prompts, "prompt").sort(byKey((prompt) => prompt.descriptor.name));
  const allResources = entries(modules.resources, "resource").sort(byKey(uriOf));
  const fixed = allResources.filter((entry) => "uri" in entry.descriptor);
  const resources = fixed.filter((entry) => !entry.unlisted);
  const templates = allResources.filter((entry) => "uriTemplate" in entry.descriptor);

  const toolsByName = indexBy(tools, (tool) => tool.descriptor.name, "tool name");
  const promptsByName = indexBy(prompts, (prompt) => prompt.descriptor.name, "prompt name");
  const resourcesByUri = indexBy(fixed, uriOf, "resource URI");
  const templatesByTemplate = indexBy(templates, uriOf, "resource template");

  const hasCompletion = [...prompts, ...templates].some((entry) => Object.keys(entry.completers).length > 0);
  const capabilities: ServerCapabilities = {
    ...(tools.length ? { tools: {} } : {}),
    ...(prompts.length ? { prompts: {} } : {}),
    ...(allResources.length ? { resources: {} } : {}),
    ...(hasCompletion ? { completions: {} } : {}),
    logging: {},
  };

  return {
    tools,
    prompts,
    resources,
    templates,
    all: [...tools, ...prompts, ...allResources],
    toolsByName,
    promptsByName,
    capabilities,
    findResource(uri) {
      const fixed = resourcesByUri.get(uri);
      if (fixed) return { entry: fixed, variables: {} };
      for (const entry of templates) {
        const variables = entry.template!.match(uri);
        if (variables) return { entry, variables };
      }
      return undefined;
    },
    findTemplate: (uriTemplate) => templatesByTemplate.get(uriTemplate),
  };
}

export const registry = buildRegistry({ tools: toolModules, prompts: promptModules, resources: resourceModules });

/**
 * What `server/discover` or `initialize` declares: the registry's capabilities, `resources.subscribe` where the era offers
 * updates (`offerResourceSubscriptions`) and a message bus carries them, and the extensions features declared for it.
 */
export function serverCapabilities(era: Era): ServerCapabilities {
  const extensions = declaredExtensions(era);
  const subscribe =
    offersResourceSubscriptions(era) && registry.capabilities.resources && useMessageBus()
      ? { resources: { subscribe: true } }
      : {};
  return { ...registry.capabilities, ...subscribe, ...(Object.keys(extensions).length ? { extensions } : {}) };
}
