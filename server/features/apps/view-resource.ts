/**
 * One built UI as the `ui://<name>` resource: its document as `text`, with the MCP App MIME type, and its `_meta.ui` (CSP,
 * permissions, domain, border) on both the listing and the read, checked when the server starts.
 */
import type { McpUiResourceMeta } from "@modelcontextprotocol/ext-apps";
import { RESOURCE_MIME_TYPE } from "@modelcontextprotocol/ext-apps/server";
import { entryBase, isPlainObject, presentFields, type Resource, type ResourceEntry } from "../../mcp/kit";
import type { UiResourceOptions } from "./author";

/** A UI's name: its folder's name under `ui/`, and the host of its `ui://` URI. */
const UI_NAME = /^[a-z0-9][a-z0-9-]*$/;

/** A UI folder after the build: its name, its one document (loaded on the first read), and its `resource.ts` (if any). */
export interface BuiltView {
  readonly name: string;
  readonly html: () => Promise<string>;
  readonly options: UiResourceOptions;
}

/** The document changes only with a deploy, and is the same for every caller: anyone may keep it for an hour. */
const VIEW_CACHE = { ttlMs: 3_600_000, cacheScope: "public" } as const;

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;
const PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"] as const;
const OPTION_KEYS = ["title", "description", "csp", "permissions", "domain", "prefersBorder"];
/** A secure origin, optionally a wildcard subdomain or a port; no path, nothing a CSP directive could be split on. */
const ORIGIN = /^(?:https|wss):\/\/(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d{1,5})?$/;
/** A development server on this machine. */
const LOOPBACK_ORIGIN = /^(?:https?|wss?):\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/;
const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** The `_meta.ui` of a UI's options; throws naming the UI and the first thing wrong. */
export function checkedUiMeta(name: string, options: unknown): McpUiResourceMeta {
  const fail = (problem: string): never => {
    throw new Error(`UI "${name}" (ui/${name}/resource.ts): ${problem}`);
  };
  if (!isPlainObject(options)) return fail("the default export must be an object");
  for (const key of Object.keys(options))
    if (!OPTION_KEYS.includes(key)) fail(`unknown option "${key}" (known: ${OPTION_KEYS.join(", ")})`);
  for (const key of ["title", "description", "domain"] as const)
    if (options[key] !== undefined && typeof options[key] !== "string") fail(`${key} must be a string`);
  const { csp, permissions, domain, prefersBorder = true } = options;
  if (typeof prefersBorder !== "boolean") fail("prefersBorder must be true or false");

  const meta: McpUiResourceMeta = { prefersBorder: prefersBorder as boolean };
  if (csp !== undefined) {
    if (!isPlainObject(csp)) fail("csp must be an object");
    const checked: Record<string, string[]> = {};
    for (const [key, origins] of Object.entries(csp as Record<string, unknown>)) {
      if (!(CSP_KEYS as readonly string[]).includes(key))
        fail(`unknown csp key "${key}" (known: ${CSP_KEYS.join(", ")})`);
      if (!Array.isArray(origins)) fail(`csp.${key} must be a list of origins`);
      for (const origin of origins as unknown[])
        if (typeof origin !== "string" || !(ORIGIN.test(origin) || LOOPBACK_ORIGIN.test(origin)))
          fail(
            `csp.${key}: ${JSON.stringify(origin)} is not an origin such as "https://api.example.com" or ` +
              `"https://*.example.com" (https or wss, lower case, no path; http and ws only for localhost)`,
          );
      checked[key] = [...(origins as string[])];
    }
    meta.csp = checked;
  }
  if (permissions !== undefined) {
    if (!isPlainObject(permissions)) fail("permissions must be an object");
    for (const [key, value] of Object.entries(permissions as Record<string, unknown>)) {
      if (!(PERMISSIONS as readonly string[]).includes(key))
        fail(`unknown permission "${key}" (known: ${PERMISSIONS.join(", ")})`);
      if (!isPlainObject(value) || Object.keys(value).length > 0) fail(`permissions.${key} must be {}`);
    }
    meta.permissions = Object.fromEntries(Object.keys(permissions as object).map((key) => [key, {}]));
  }
  if (domain !== undefined) {
    if (!HOST_NAME.test(domain as string))
      fail(`domain ${JSON.stringify(domain)} is not a host name such as "abc123.claudemcpcontent.com"`);
    meta.domain = domain as string;
  }
  return meta;
}

/** The resource entry serving `view` at `ui://<name>`: found by URI like any resource, read the same way by every caller. */
export function viewResource(view: BuiltView): ResourceEntry {
  if (!UI_NAME.test(view.name))
    throw new Error(`UI folder ui/${view.name}/: a UI's name is lower-case letters, digits and -`);
  const uri = `ui://${view.name}`;
  const ui = checkedUiMeta(view.name, view.options);
  const { title, description } = view.options;
  const descriptor: Resource = {
    uri,
    name: view.name,
    ...presentFields({ title, description }),
    mimeType: RESOURCE_MIME_TYPE,
    // Also on the listing: some hosts build the sandbox from it alone.
    _meta: { ui },
  };
  return {
    ...entryBase({}),
    kind: "resource",
    descriptor,
    cache: VIEW_CACHE,
    completers: {},
    // The runtime keeps the document's module once imported.
    read: async () => ({ contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text: await view.html(), _meta: { ui } }] }),
  };
}
