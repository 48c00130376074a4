/**
 * Every helper a tool author calls (the functions `utils/` exports, auto-imported by Nitro, and the in-process test
 * helpers), and every value the kit hands features, stores and the app, has TSDoc with an example on its declaration.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

interface Documented {
  /** A description of more than a few words. */
  documented: boolean;
  tags: string[];
}

/** What the TSDoc on `node` (a declaration, or a variable's statement) holds. */
function docsOf(node: ts.Node): Documented {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  return {
    documented: docs.some((doc) => (ts.getTextOfJSDocComment(doc.comment) ?? "").length > 20),
    tags: docs.flatMap((doc) => (doc.tags ?? []).map((tag) => tag.tagName.text)),
  };
}

/** Exported functions of one file, with the tags of the TSDoc on their first declaration. */
function exportedFunctions(file: string): ({ name: string } & Documented)[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const seen = new Set<string>();
  const found: ({ name: string } & Documented)[] = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name) continue;
    if (!statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (seen.has(statement.name.text)) continue; // overloads: the first declaration is what the editor shows
    seen.add(statement.name.text);
    found.push({ name: statement.name.text, ...docsOf(statement) });
  }
  return found;
}

/**
 * The values (functions, constants, classes) `server/mcp/kit.ts` exports, each followed to its declaration in the core (a
 * re-export, renamed or not, is an alias), with its TSDoc: a variable's sits on its statement. Types are left out, and so is
 * what the kit re-exports as types only.
 */
function kitValues(): ({ name: string; file: string } & Documented)[] {
  const { config } = ts.readConfigFile("tsconfig.json", ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, process.cwd());
  const program = ts.createProgram(["server/mcp/kit.ts"], options);
  const checker = program.getTypeChecker();
  const kitFile = program.getSourceFile("server/mcp/kit.ts")!;
  const kit = checker.getSymbolAtLocation(kitFile)!;
  return checker.getExportsOfModule(kit).flatMap((exported) => {
    // What `export type * from` brings in is the module's own symbol, not one the kit declares: a type, whatever it names.
    if (!exported.declarations?.some((declaration) => declaration.getSourceFile() === kitFile)) return [];
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & ts.SymbolFlags.Value)) return [];
    const declaration = symbol.declarations?.[0];
    // An export that resolves to nothing fails its row rather than vanishing from the list.
    if (!declaration) return [{ name: exported.name, file: "(not found)", documented: false, tags: [] }];
    const documentedNode = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
    const file = relative(process.cwd(), declaration.getSourceFile().fileName);
    return [{ name: exported.name, file, ...docsOf(documentedNode) }];
  });
}

describe("the author helpers in utils/", () => {
  const files = readdirSync("utils").filter((file) => file.endsWith(".ts"));
  const helpers = files.flatMap((file) =>
    exportedFunctions(join("utils", file)).map((helper) => ({ ...helper, file })),
  );

  it("are found", () => {
    expect(helpers.map((helper) => helper.name)).toEqual(
      expect.arrayContaining(["defineTool", "elicitForm", "inputRequired", "readRequestState"]),
    );
  });

  it.each(helpers.map((helper) => [`${helper.file}: ${helper.name}`, helper] as const))(
    "%s has TSDoc with an @example",
    (_, helper) => {
      expect(helper.documented).toBe(true);
      expect(helper.tags).toContain("example");
    },
  );
});

describe("the in-process test helpers (tests/helpers/in-process.ts)", () => {
  const helpers = exportedFunctions("tests/helpers/in-process.ts");

  it("are found", () => {
    expect(helpers.map((helper) => helper.name)).toEqual(
      expect.arrayContaining(["createTestServer", "createTestClient"]),
    );
  });

  it.each(helpers.map((helper) => [helper.name, helper] as const))("%s has TSDoc with an @example", (_, helper) => {
    expect(helper.documented).toBe(true);
    expect(helper.tags).toContain("example");
  });
});

describe("the kit (server/mcp/kit.ts)", () => {
  const values = kitValues();

  it("is read to its declarations, types left out", () => {
    const found = values.map((value) => `${value.name} ${value.file}`);
    expect(found).toEqual(
      expect.arrayContaining([
        "addAuthenticator server/mcp/kit.ts",
        "boundedInteger server/mcp/settings.ts",
        "McpError server/mcp/errors.ts",
        "defineStore server/mcp/store.ts",
      ]),
    );
    expect(found).not.toContain("McpContext server/mcp/context.ts");
  });

  it("re-exports whole modules only as types: each value is named, so that it is read here", () => {
    expect(readFileSync("server/mcp/kit.ts", "utf8")).not.toMatch(/^export \* from/m);
  });

  it.each(values.map((value) => [`${value.name} (${value.file})`, value] as const))(
    "%s has TSDoc with an @example",
    (_, value) => {
      expect(value.documented).toBe(true);
      expect(value.tags).toContain("example");
    },
  );
});
