/** What the client can answer, read strictly (untrusted): a non-object declares nothing; `elicitation: {}` is form only. */
import { MissingCapabilitiesError } from "./errors";
import { isPlainObject } from "./internal/basics";
import type { ClientCapabilities, InputRequest } from "./protocol";

type Declared = Readonly<Record<string, unknown>>;

/** The capabilities an embedded request needs, as a ClientCapabilities fragment. */
export function requiredCapabilities(request: InputRequest): ClientCapabilities {
  switch (request.method) {
    case "elicitation/create":
      return request.params.mode === "url" ? { elicitation: { url: {} } } : { elicitation: { form: {} } };
    case "sampling/createMessage": {
      const params = request.params as Record<string, unknown>;
      const sampling: Record<string, object> = {};
      if (params.includeContext === "thisServer" || params.includeContext === "allServers") sampling.context = {};
      if (params.tools !== undefined || params.toolChoice !== undefined) sampling.tools = {};
      return { sampling };
    }
    case "roots/list":
      return { roots: {} };
  }
}

function declares(declared: Declared, required: ClientCapabilities): boolean {
  const { elicitation, sampling, roots } = required as Record<string, Record<string, unknown> | undefined>;
  if (elicitation) {
    const value = declared.elicitation;
    if (!isPlainObject(value)) return false;
    const bare = !("form" in value) && !("url" in value);
    if (elicitation.form && !(isPlainObject(value.form) || bare)) return false;
    if (elicitation.url && !isPlainObject(value.url)) return false;
  }
  if (sampling) {
    const value = declared.sampling;
    if (!isPlainObject(value)) return false;
    if (sampling.context && !isPlainObject(value.context)) return false;
    if (sampling.tools && !isPlainObject(value.tools)) return false;
  }
  if (roots && !isPlainObject(declared.roots)) return false;
  return true;
}

/**
 * Whether a client that declared `declared` can answer `request` (a URL-mode elicitation needs `elicitation.url`).
 * @example
 * if (!clientCanAnswer(mcp.clientCapabilities, ask)) return toolErrorResult("Open the settings page to connect.");
 */
export function clientCanAnswer(declared: Declared, request: InputRequest): boolean {
  return declares(declared, requiredCapabilities(request));
}

/** Throws -32021 (HTTP 400) naming every missing capability at once when any request cannot be answered. */
export function requireClientCapabilities(declared: Declared, requests: Readonly<Record<string, InputRequest>>): void {
  const missing: Record<string, Record<string, unknown>> = {};
  const unanswerable: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(requests)) {
    const required = requiredCapabilities(request);
    if (declares(declared, required)) continue;
    for (const [name, value] of Object.entries(required as Record<string, object>)) {
      missing[name] = { ...missing[name], ...value };
    }
    unanswerable[key] = request;
  }
  const keys = Object.keys(unanswerable);
  if (keys.length === 0) return;
  const names = Object.entries(missing)
    .map(([name, sub]) => (Object.keys(sub).length ? `${name} (${Object.keys(sub).join(", ")})` : name))
    .join(", ");
  throw new MissingCapabilitiesError(
    missing as ClientCapabilities,
    `${names}, needed to ask for ${keys.join(", ")}`,
    unanswerable,
  );
}
