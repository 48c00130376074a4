/** `defineResource`: one file in `server/resources/` = one resource, fixed (`uri`) or templated (`uriTemplate`). */
import {
  base64Encode,
  compileUriTemplate,
  entryBase,
  isInputRequiredOutcome,
  presentFields,
  ResourceNotFoundError,
  type CacheHints,
  type Completer,
  type InputRequiredOutcome,
  type DefinitionOptions,
  type McpContext,
  type ReadResourceResult,
  type Resource,
  type ResourceEntry,
  type ResourceTemplate,
} from "../server/mcp/kit";

type Contents = ReadResourceResult["contents"];

/** Text, bytes, explicit contents, or `undefined` for "no such resource". */
export type ResourceReturn = string | Uint8Array | Contents | undefined | InputRequiredOutcome;

interface ResourceMetadata extends DefinitionOptions {
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  icons?: Resource["icons"];
  annotations?: Resource["annotations"];
  /** Caching hints for `resources/read`; the default is `{ ttlMs: 0, cacheScope: "private" }`. */
  cache?: Partial<CacheHints>;
}

export interface FixedResourceOptions extends ResourceMetadata {
  uri: string;
  size?: number;
  read(variables: Readonly<Record<string, never>>, mcp: McpContext): ResourceReturn | Promise<ResourceReturn>;
}

/** The variable names of a URI template: `"note://{id}"` → `"id"`. */
export type TemplateVariables<Template extends string> = Template extends `${string}{${infer Name}}${infer Rest}`
  ? Name | TemplateVariables<Rest>
  : never;

export interface TemplatedResourceOptions<Template extends string> extends ResourceMetadata {
  uriTemplate: Template;
  /** The concrete resources behind this template, listed by `resources/list`. */
  list?(mcp: McpContext): readonly Resource[] | Promise<readonly Resource[]>;
  /** Completion for template variables, by variable name. */
  complete?: { [Name in TemplateVariables<Template>]?: Completer };
  read(
    variables: Readonly<Record<TemplateVariables<Template>, string>>,
    mcp: McpContext,
  ): ResourceReturn | Promise<ResourceReturn>;
}

function toContents(value: Exclude<ResourceReturn, InputRequiredOutcome>, uri: string, mimeType?: string): Contents {
  const type = mimeType ? { mimeType } : {};
  if (typeof value === "string") return [{ uri, ...type, text: value }];
  if (value instanceof Uint8Array) return [{ uri, ...type, blob: base64Encode(value) }];
  return value === undefined ? [] : value;
}

/**
 * Declares a fixed resource: `read` returns text, bytes (as base64), contents, `undefined` for "not found", or `inputRequired(…)`.
 * @example
 * // server/resources/readme.ts
 * export default defineResource({
 *   uri: "docs://readme",
 *   name: "readme",
 *   mimeType: "text/markdown",
 *   cache: { ttlMs: 3_600_000, cacheScope: "public" },
 *   read: () => "# Hello",
 * });
 */
export function defineResource(options: FixedResourceOptions): ResourceEntry;
/**
 * Declares a resource template (RFC 6570 level 1, e.g. `note://{id}`): `read` receives the decoded variables.
 * @example
 * // server/resources/note.ts
 * export default defineResource({
 *   uriTemplate: "note://{id}",
 *   name: "note",
 *   mimeType: "text/plain",
 *   list: async () => (await listNotes()).map((note) => ({ uri: `note://${note.id}`, name: note.title })),
 *   read: async ({ id }) => (await getNote(id))?.text, // undefined → "resource not found"
 * });
 */
export function defineResource<Template extends string>(options: TemplatedResourceOptions<Template>): ResourceEntry;
export function defineResource(options: FixedResourceOptions | TemplatedResourceOptions<string>): ResourceEntry {
  const { name, title, description, mimeType, icons, annotations } = options;
  const metadata = { name, ...presentFields({ title, description, mimeType, icons, annotations }) };
  const templated = "uriTemplate" in options;
  const template = templated ? compileUriTemplate(options.uriTemplate) : undefined;
  const descriptor: Resource | ResourceTemplate = templated
    ? { uriTemplate: options.uriTemplate, ...metadata }
    : { uri: options.uri, ...metadata, ...presentFields({ size: options.size }) };
  const cache = options.cache ?? {};
  if (cache.ttlMs !== undefined && !(Number.isInteger(cache.ttlMs) && cache.ttlMs >= 0)) {
    throw new Error(`Resource "${name}": cache.ttlMs must be an integer >= 0`);
  }

  return {
    ...entryBase(options),
    kind: "resource",
    descriptor,
    cache,
    completers: templated ? ((options.complete ?? {}) as Record<string, Completer>) : {},
    ...(template ? { template } : {}),
    ...(templated && options.list ? { list: async (mcp: McpContext) => options.list!(mcp) } : {}),
    async read(uri, variables, mcp) {
      const value = await options.read(variables as Record<string, never> & Record<string, string>, mcp);
      if (isInputRequiredOutcome(value)) return value;
      const contents = toContents(value, uri, mimeType);
      // Empty contents would read as "found, but nothing there"; the spec wants an error for a missing resource.
      if (contents.length === 0) throw new ResourceNotFoundError(uri);
      return { contents };
    },
  };
}
