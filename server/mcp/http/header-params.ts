/** `x-mcp-header` annotations, validated at definition: clients must drop a tool with an invalid one from tools/list. */
import { isPlainObject } from "../internal/basics";
import type { HeaderParam } from "../protocol";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);

type Schema = Record<string, unknown>;

function countAnnotations(value: unknown): number {
  // An array's entries are its items, under keys that are never `x-mcp-header`.
  if (typeof value !== "object" || value === null) return 0;
  return Object.entries(value).reduce(
    (sum, [key, child]) => sum + (key === "x-mcp-header" ? 1 : 0) + countAnnotations(child),
    0,
  );
}

/**
 * The parameters a tool's input schema mirrors into `Mcp-Param-*` headers (`x-mcp-header`), found once, at
 * definition: an invalid annotation throws there, naming the tool.
 * @example
 * findHeaderParams("greet", { type: "object", properties: { locale: { type: "string", "x-mcp-header": "Locale" } } });
 * // [{ header: "Locale", path: ["locale"], type: "string" }]
 */
export function findHeaderParams(toolName: string, inputSchema: Schema): HeaderParam[] {
  const found: HeaderParam[] = [];
  const fail = (reason: string): never => {
    throw new Error(`Tool "${toolName}": invalid x-mcp-header: ${reason}`);
  };
  const visit = (schema: Schema, path: string[]) => {
    if (!isPlainObject(schema.properties)) return;
    for (const [key, property] of Object.entries(schema.properties)) {
      if (!isPlainObject(property)) continue;
      const here = [...path, key];
      const header = property["x-mcp-header"];
      if (header !== undefined) {
        if (typeof header !== "string" || !TOKEN.test(header)) fail(`"${here.join(".")}" must name a header token`);
        if (typeof property.type !== "string" || !HEADER_TYPES.has(property.type))
          fail(`"${here.join(".")}" must be a string, integer or boolean parameter`);
        const name = header as string;
        if (found.some((param) => param.header.toLowerCase() === name.toLowerCase())) fail(`"${name}" is used twice`);
        found.push({ header: name, path: here, type: property.type as HeaderParam["type"] });
      }
      visit(property, here);
    }
  };
  visit(inputSchema, []);
  if (countAnnotations(inputSchema) !== found.length)
    fail("annotations must sit on properties reachable from the root through `properties` only");
  return found;
}
