/**
 * What a 2025-era session keeps of the capabilities its client declared at `initialize`: the part handlers read on every
 * later request (`mcp.clientCapabilities`), as a fresh copy small enough to travel in the sealed `Mcp-Session-Id`.
 *
 * - elicitation (form, URL), sampling (context, tools) and roots: presence only, as far as the negotiated version has
 *   them, read as the core reads a 2026-07-28 declaration (`capabilities.ts`: a non-object declares nothing, and
 *   `elicitation: {}` is form only).
 * - extensions (`capabilities.extensions`, where MCP Apps' hosts declare `io.modelcontextprotocol/ui` with its
 *   `mimeTypes`): each one whose name and settings are within the bounds below, with its settings, in the order declared,
 *   until the budget is spent. `experimental` and anything else is not kept: no handler reads it.
 *
 * Whatever does not fit is left out, never an error: a client declaring a megabyte still initializes, with a session id
 * about as long as one declaring every kept part to its bound.
 */
import { isPlainObject, utf8Encode } from "../../mcp/kit";

/** An extension's name, `vendor-prefix/name` in visible ASCII: at most this long. */
const MAX_EXTENSION_NAME = 128;
/** One extension's settings, as JSON (UTF-8 bytes): larger ones leave the extension out. */
const MAX_EXTENSION_SETTINGS_BYTES = 256;
/** Every extension kept, together, as JSON (UTF-8 bytes). */
export const MAX_EXTENSIONS_BYTES = 1024;

const isExtensionName = (name: string) =>
  name.length <= MAX_EXTENSION_NAME && /^[\x21-\x7e]+\/[\x21-\x7e]+$/.test(name);

/** The sub-capabilities of `value` among `subs` that are objects, as presence; undefined when `value` is not an object. */
function presence(value: unknown, subs: readonly string[]): Record<string, object> | undefined {
  if (!isPlainObject(value)) return undefined;
  return Object.fromEntries(subs.filter((sub) => isPlainObject(value[sub])).map((sub) => [sub, {}]));
}

/** Elicitation came with 2025-06-18 (no modes), its URL mode with 2025-11-25 (and with it the explicit form mode). */
function elicitation(version: string, value: unknown): Record<string, object> | undefined {
  if (version === "2025-03-26") return undefined;
  if (version !== "2025-11-25") return presence(value, []);
  const kept = presence(value, ["form", "url"]);
  // `{}` means form; `{ form: "yes" }` names a mode without declaring one, so it must not be kept as `{}`.
  const namesMode = isPlainObject(value) && ("form" in value || "url" in value);
  return kept && Object.keys(kept).length === 0 && namesMode ? undefined : kept;
}

/** The extensions within the bounds, each with a copy of its settings, until `MAX_EXTENSIONS_BYTES` is spent. */
function keptExtensions(declared: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(declared)) return undefined;
  const kept: [string, unknown][] = [];
  let bytes = 2; // "{}"
  for (const [name, settings] of Object.entries(declared)) {
    if (!isExtensionName(name) || !isPlainObject(settings)) continue;
    const json = JSON.stringify(settings);
    const settingsBytes = utf8Encode(json).byteLength;
    if (settingsBytes > MAX_EXTENSION_SETTINGS_BYTES) continue;
    // `"name":settings`, and a comma before all but the first (a valid name is ASCII: its JSON is one byte a character).
    const entryBytes = JSON.stringify(name).length + 1 + settingsBytes + (kept.length ? 1 : 0);
    if (bytes + entryBytes > MAX_EXTENSIONS_BYTES) continue;
    bytes += entryBytes;
    kept.push([name, JSON.parse(json)]);
  }
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/** What the session of a client of `version` that declared `declared` keeps (see above). */
export function keptCapabilities(
  version: string,
  declared: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const parts: Record<string, unknown> = {
    elicitation: elicitation(version, declared.elicitation),
    sampling: presence(declared.sampling, ["context", "tools"]),
    roots: presence(declared.roots, []),
    extensions: keptExtensions(declared.extensions),
  };
  return Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined));
}
