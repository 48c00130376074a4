/** Every tool, prompt and resource found at build time (`#mcp-definitions`), indexed once at start-up, and their capabilities. */
import { mergeCapabilities } from "./capabilities";
import type { RequestTarget } from "./context";
import { invalidParams } from "./errors";
import { isEntry, type Entry, type PromptEntry, type ResourceEntry, type ToolEntry } from "./entries";
import { registered, type ResourceFound } from "./hooks";
import { MODERN_PROTOCOL_VERSION, type ServerCapabilities } from "./protocol";

export interface Registry {
  /** In deterministic (name) order. */
  readonly tools: readonly ToolEntry[];
  readonly prompts: readonly PromptEntry[];
  /** Fixed resources, listed in `resources/list`, by URI order. */
  readonly resources: readonly ResourceEntry[];
  readonly templates: readonly ResourceEntry[];
  readonly all: readonly Entry[];
  readonly toolsByName: ReadonlyMap<string, ToolEntry>;
  readonly promptsByName: ReadonlyMap<string, PromptEntry>;
  /** The capabilities of what is registered; `serverCapabilities` adds the extensions features declared. */
  readonly capabilities: ServerCapabilities;
  /**
   * The resource a URI belongs to: a fixed resource first, then the first matching template, then what features serve
   * without listing it (`findResources`).
   */
  findResource(uri: string): ResourceFound | undefined;
  findTemplate(uriTemplate: string): ResourceEntry | undefined;
}

function entries<K extends Entry["kind"]>(definitions: Found["tools"], kind: K): Extract<Entry, { kind: K }>[] {
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

function buildRegistry(modules: Found): Registry {
  const tools = entries(modules.tools, "tool").sort(byKey((tool) => tool.descriptor.name));
  const prompts = entries(modules.prompts, "prompt").sort(byKey((prompt) => prompt.descriptor.name));
  const allResources = entries(modules.resources, "resource").sort(byKey(uriOf));
  const fixed = allResources.filter((entry) => "uri" in entry.descriptor);
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
    resources: fixed,
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
      for (const served of registered.servedResources) {
        const found = served.find(uri);
        if (found) return found;
      }
    },
    findTemplate: (uriTemplate) => templatesByTemplate.get(uriTemplate),
  };
}

/** Each definition file's default export, with the file's path (for error messages): `server/build/virtual-modules.d.ts`. */
type Found = typeof import("#mcp-definitions");

let found: Found | undefined;
let built: Registry | undefined;

/**
 * Hands the registry the build's definitions, once at start-up (`server/plugins/mcp-startup.ts`, the first plugin). The
 * definition files import the kit, which exports this module: importing them here would make a cycle.
 *
 * @example setDefinitions(await import("#mcp-definitions"));
 */
export function setDefinitions(definitions: Found): void {
  found = definitions;
  built = undefined;
}

/**
 * The registry, indexed on first use after start-up.
 *
 * @example const tool = registry().toolsByName.get("delete_note");
 * @example const audited = registry().all.filter((entry) => entry.options.audited); // a feature's plugin
 */
export function registry(): Registry {
  if (!found) throw new Error("programming error: the registry was read before start-up handed it the definitions");
  built ??= buildRegistry(found);
  return built;
}

/**
 * What `server/discover` declares (`adapted`: what an adapter's own handshake, e.g. `initialize`, declares): the registry's
 * capabilities, the capabilities features declared (merged one level deep: e.g. `resources.subscribe`), and the extensions
 * features declared for it.
 * @example return { protocolVersion: mcp.protocolVersion, capabilities: serverCapabilities(true), serverInfo };
 */
export function serverCapabilities(adapted = false): ServerCapabilities {
  // The extensions declared, for 2026-07-28 (`server/discover`), or only those also for adapters (`adapted`).
  const declared = [...registered.extensions].filter(([, extension]) => !adapted || extension.adapted);
  const extensions = Object.fromEntries(declared.map(([name, { settings }]) => [name, settings]));
  const merged = mergeCapabilities([registry().capabilities, ...registered.capabilities]);
  return { ...merged, ...(Object.keys(extensions).length ? { extensions } : {}) };
}

/**
 * Bounds of a resource subscription, whatever the protocol revision: URIs per stream or session, length of one.
 * @example if (uris.length > MAX_SUBSCRIBED_URIS) throw invalidParams(`at most ${MAX_SUBSCRIBED_URIS} resource URIs`);
 */
export const MAX_SUBSCRIBED_URIS = 20;
/**
 * The longest resource URI a subscription takes, in characters.
 * @example
 * if (uri.length > MAX_URI_LENGTH) throw invalidParams(`params.uri is longer than ${MAX_URI_LENGTH} characters`);
 */
export const MAX_URI_LENGTH = 2048;

/**
 * The resource at `uri` as a request target, or -32602 when no resource on this server has that URI.
 * @example const readable = uris.map(servedResource).filter((target) => mayAct(mcp, "resources/read", target));
 */
export function servedResource(uri: string): RequestTarget {
  const found = registry().findResource(uri);
  if (!found) throw invalidParams(`no resource on this server has the URI ${JSON.stringify(uri)}`);
  return { name: uri, ...found };
}

/**
 * Every version a client may use, newest first (as listed in discover and in -32022): 2026-07-28, then the adapters'.
 * @example throw unsupportedProtocolVersion(header, supportedProtocolVersions());
 */
export function supportedProtocolVersions(): readonly string[] {
  return [MODERN_PROTOCOL_VERSION, ...registered.adapters.flatMap((adapter) => adapter.versions)];
}
