/** Every helper a tool author calls (the functions `utils/` exports, auto-imported by Nitro, and the in-process test helpers) has TSDoc with an example on its declaration. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** Exported functions of one file, with the tags of the TSDoc on their first declaration. */
function exportedFunctions(file: string): { name: string; tags: string[]; documented: boolean }[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const seen = new Set<string>();
  const found: { name: string; tags: string[]; documented: boolean }[] = [];
  for (const statement of source.statements) {
    if (!ts.isFunctionDeclaration(statement) || !statement.name) continue;
    if (!statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if (seen.has(statement.name.text)) continue; // overloads: the first declaration is what the editor shows
    seen.add(statement.name.text);
    const docs = ts.getJSDocCommentsAndTags(statement).filter(ts.isJSDoc);
    found.push({
      name: statement.name.text,
      documented: docs.some((doc) => typeof doc.comment === "string" && doc.comment.length > 20),
      tags: docs.flatMap((doc) => (doc.tags ?? []).map((tag) => tag.tagName.text)),
    });
  }
  return found;
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
