/**
 * What the client can answer, read strictly (untrusted): a non-object declares nothing; `elicitation: {}` is form only.
 * And how capability fragments merge: the ones a client is missing, and the ones the server declares.
 */
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
  return Object.entries(required as Record<string, Record<string, unknown>>).every(([name, fields]) => {
    const value = declared[name];
    if (!isPlainObject(value)) return false;
    // `elicitation: {}`, naming neither mode, declares form.
    const bare = name === "elicitation" && !("form" in value) && !("url" in value);
    return Object.keys(fields).every((field) => isPlainObject(value[field]) || (field === "form" && bare));
  });
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
  const unanswerable = Object.entries(requests).filter(([, request]) => !clientCanAnswer(declared, request));
  if (unanswerable.length === 0) return;
  const missing = mergeCapabilities(unanswerable.map(([, request]) => requiredCapabilities(request)));
  const names = Object.entries(missing as Record<string, object>)
    .map(([name, sub]) => (Object.keys(sub).length ? `${name} (${Object.keys(sub).join(", ")})` : name))
    .join(", ");
  const keys = unanswerable.map(([key]) => key).join(", ");
  throw new MissingCapabilitiesError(missing, `${names}, needed to ask for ${keys}`, Object.fromEntries(unanswerable));
}

/** Capabilities merged one level deep: `{ resources: {} }` and `{ resources: { subscribe: true } }` make one. */
export function mergeCapabilities<Capabilities extends object>(fragments: readonly Capabilities[]): Capabilities {
  const merged: Record<string, object> = {};
  for (const fragment of fragments) {
    for (const [name, value] of Object.entries(fragment)) merged[name] = { ...merged[name], ...value };
  }
  return merged as Capabilities;
}
