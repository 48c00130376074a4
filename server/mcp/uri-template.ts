/** RFC 6570 level 1 URI templates (`note://{id}`): a value is percent-encoded, so it never contains `/`, `?` or `#`. */
const VARIABLE = /\{([A-Za-z0-9_]+)\}/g;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export interface UriTemplate {
  readonly variables: readonly string[];
  /** The decoded variables when `uri` belongs to the template, else null. */
  match(uri: string): Record<string, string> | null;
}

/**
 * A level 1 URI template (`note://{id}`), compiled once, at definition, where any other expression throws; `match`
 * decodes a URI's variables.
 * @example compileUriTemplate("note://{id}").match("note://7"); // { id: "7" }
 */
export function compileUriTemplate(template: string): UriTemplate {
  if (/[{}]/.test(template.replace(VARIABLE, "")))
    throw new Error(`Unsupported URI template "${template}": only level 1 ({name}) expressions are supported`);
  // Split on its expressions: the literal text at even indexes, a variable's name at odd ones.
  const parts = template.split(VARIABLE);
  const variables = parts.filter((_, index) => index % 2 === 1);
  const pattern = parts.map((part, index) => (index % 2 === 1 ? "([^/?#]+)" : escapeRegExp(part))).join("");
  const regexp = new RegExp(`^${pattern}$`);
  return {
    variables,
    match(uri) {
      const found = regexp.exec(uri);
      if (!found) return null;
      try {
        return Object.fromEntries(variables.map((name, index) => [name, decodeURIComponent(found[index + 1]!)]));
      } catch {
        return null; // a malformed percent-encoding
      }
    },
  };
}
