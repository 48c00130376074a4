/**
 * What the server offers, as one list: its tools, prompts, resources and resource templates,
 * each with the schema of what to ask before using it (a tool's `inputSchema`; a prompt's
 * arguments and a template's variables as string properties), and the request that uses it.
 */
import { UriTemplate } from "@modelcontextprotocol/client";

/**
 * @typedef {object} CatalogEntry
 * @property {"tool" | "prompt" | "resource" | "template"} kind
 * @property {string} name a tool's or prompt's name; a resource's or template's URI
 * @property {string} [title]
 * @property {string} [description]
 * @property {import("./schema-values.mjs").ObjectSchema} inputSchema what to ask for
 */

/**
 * What runs a catalog entry.
 * @typedef {{ method: "tools/call" | "prompts/get", name: string, arguments: Record<string, unknown> } | { method: "resources/read", uri: string }} EntryRequest
 */

/** A template's variables as required string properties. */
function templateSchema(/** @type {string} */ uriTemplate) {
  const names = new UriTemplate(uriTemplate).variableNames;
  return {
    type: "object",
    properties: Object.fromEntries(names.map((name) => [name, { type: "string" }])),
    required: names,
  };
}

/** @typedef {CatalogEntry["kind"]} Kind */

/**
 * Each kind's list, as entries (each list walked to its last page by the client).
 * @type {Record<Kind, (client: import("@modelcontextprotocol/client").Client) => Promise<CatalogEntry[]>>}
 */
const LISTS = {
  tool: async (client) =>
    (await client.listTools()).tools.map((tool) => ({
      kind: "tool",
      name: tool.name,
      title: tool.title,
      description: tool.description,
      // The SDK types it as any JSON object; it is a JSON Schema of type object, the part read here.
      inputSchema: /** @type {import("./schema-values.mjs").ObjectSchema} */ (tool.inputSchema),
    })),
  prompt: async (client) =>
    (await client.listPrompts()).prompts.map((prompt) => ({
      kind: "prompt",
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      inputSchema: {
        type: "object",
        properties: Object.fromEntries(
          (prompt.arguments ?? []).map((argument) => [
            argument.name,
            { type: "string", description: argument.description },
          ]),
        ),
        required: (prompt.arguments ?? []).filter((argument) => argument.required).map((argument) => argument.name),
      },
    })),
  resource: async (client) =>
    (await client.listResources()).resources.map((resource) => ({
      kind: "resource",
      name: resource.uri,
      title: resource.title ?? resource.name,
      description: resource.description,
      inputSchema: { type: "object", properties: {} },
    })),
  template: async (client) =>
    (await client.listResourceTemplates()).resourceTemplates.map((template) => ({
      kind: "template",
      name: template.uriTemplate,
      title: template.title ?? template.name,
      description: template.description,
      inputSchema: templateSchema(template.uriTemplate),
    })),
};

/**
 * What the server lists, of the kinds asked for (all by default), in this order: tools, prompts,
 * resources, resource templates.
 * @param {import("@modelcontextprotocol/client").Client} client
 * @param {Kind[]} [kinds]
 * @returns {Promise<CatalogEntry[]>}
 */
export async function loadCatalog(client, kinds = ["tool", "prompt", "resource", "template"]) {
  return (await Promise.all(kinds.map((kind) => LISTS[kind](client)))).flat();
}

/**
 * The request that uses `entry` with `values`: call the tool, get the prompt (its arguments are
 * strings), read the resource, or read the template's URI with `values` filled in.
 * @param {CatalogEntry} entry
 * @param {Record<string, unknown>} values
 * @returns {EntryRequest}
 */
export function requestFor(entry, values) {
  switch (entry.kind) {
    case "tool":
      return { method: "tools/call", name: entry.name, arguments: values };
    case "prompt":
      return {
        method: "prompts/get",
        name: entry.name,
        arguments: Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)])),
      };
    case "resource":
      return { method: "resources/read", uri: entry.name };
    case "template":
      return {
        method: "resources/read",
        uri: new UriTemplate(entry.name).expand(/** @type {Record<string, string>} */ (values)),
      };
  }
}
