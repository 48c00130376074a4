/**
 * The checks that keep the docs following a fork, on inputs made up here: what the walkthrough test compares
 * (`walkthroughs`, `answerDifferences`, tests/helpers/docs.ts) and how a removed definition or script is recognised in a doc
 * (tests/helpers/removed-names.mjs).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerDifferences, walkthroughs } from "../helpers/docs";
import { definitionsIn, namesDefinition, namesScript } from "../helpers/removed-names.mjs";

const fence = "```";

/** A checkout holding only `docs` (path → text), for `walkthroughs`. */
function withDocs(docs: Record<string, string>, use: (root: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), "doc-checks-"));
  try {
    for (const [file, text] of Object.entries(docs)) {
      mkdirSync(join(root, file, ".."), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    use(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const walkthrough = (script: string, answers?: string) =>
  `<!-- walkthrough:start -->\n${fence}bash\n${script}\n${fence}\n<!-- walkthrough:end -->\n\n${
    answers === undefined ? "" : `${fence}json\n${answers}\n${fence}\n`
  }`;

describe("walkthroughs", () => {
  it("reads each walkthrough with the answers its doc shows after it, the top README first, then the core's", () => {
    withDocs(
      {
        "server/features/a/README.md": walkthrough("echo a", '{"result":{}}'),
        "server/mcp/README.md": walkthrough("echo core", '{"result":{}}\n{"error":{"code":-32602}}'),
        "README.md": `# Title\n\n${walkthrough("mcp() { :; }", '{"result":{}}')}`,
      },
      (root) => {
        expect(walkthroughs(root)).toEqual([
          { file: "README.md", script: "mcp() { :; }\n", answers: ['{"result":{}}'] },
          {
            file: "server/mcp/README.md",
            script: "echo core\n",
            answers: ['{"result":{}}', '{"error":{"code":-32602}}'],
          },
          { file: "server/features/a/README.md", script: "echo a\n", answers: ['{"result":{}}'] },
        ]);
      },
    );
  });

  it("refuses a walkthrough whose doc shows no answers", () => {
    withDocs({ "README.md": `${walkthrough("echo a")}\n${walkthrough("echo b", "{}")}` }, (root) => {
      expect(() => walkthroughs(root)).toThrow(/README\.md: a walkthrough shows no answers/);
    });
  });
});

describe("answerDifferences", () => {
  const shown =
    '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Bonjour, Ada!"}],"resultType":"complete","_meta":{…}}}';

  it("finds nothing when the answer says what the doc spells out", () => {
    const printed =
      '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"Bonjour, Ada!"}],"resultType":"complete","_meta":{"x":1}}}';
    expect(answerDifferences(shown, printed)).toEqual([]);
  });

  it("finds an error the doc does not show, and the values that are missing", () => {
    const printed = '{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: greet"}}';
    expect(answerDifferences(shown, printed)).toEqual([
      'no "text":"Bonjour, Ada!"',
      'no "resultType":"complete"',
      'an unexpected "error":{',
    ]);
  });

  it("expects the error the doc shows, with its HTTP status, and skips what it trims", () => {
    const error = '{"jsonrpc":"2.0","id":4,"error":{"code":-32020,"message":"Header mismatch: …"}}  HTTP 400';
    expect(
      answerDifferences(error, '{"jsonrpc":"2.0","id":4,"error":{"code":-32020,"message":"x"}}  HTTP 400'),
    ).toEqual([]);
    expect(answerDifferences(error, '{"jsonrpc":"2.0","id":4,"result":{}}  HTTP 200')).toEqual([
      'no "code":-32020',
      "no HTTP 400",
    ]);
  });

  it("compares the versions a server supports", () => {
    const discover = '{"result":{"supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{…}}}';
    expect(answerDifferences(discover, '{"result":{"supportedVersions":["2026-07-28"]}}')).toEqual([
      'no "supportedVersions":["2026-07-28","2025-11-25"]',
    ]);
  });
});

describe("what names a removed definition or script", () => {
  it("reads a definition's name, or a resource's URI", () => {
    const text = `export default defineTool({\n  name: "greet",\n  input: { name: z.string() },\n});\n
export default defineResource({\n  uri: "info://about",\n  name: "about",\n});\n`;
    expect(definitionsIn(text)).toEqual([
      { kind: "Tool", id: "greet" },
      { kind: "Resource", id: "info://about" },
    ]);
  });

  it("finds a name with _ or - anywhere, a plain word only where it names a definition", () => {
    expect(namesDefinition("call delete_note with an id", "delete_note")).toBe(true);
    expect(namesDefinition("call undelete_note", "delete_note")).toBe(false);
    expect(namesDefinition("try `greet`", "greet")).toBe(true);
    expect(namesDefinition("-H 'Mcp-Name: greet'", "greet")).toBe(true);
    expect(namesDefinition("marked in greet's schema", "greet")).toBe(true);
    expect(namesDefinition("greet the person, then add a note", "greet")).toBe(false);
    expect(namesDefinition("add a note", "add")).toBe(false);
  });

  it("finds `npm run <script>`, not a longer script's name", () => {
    expect(namesScript("then `npm run client -- call x`", "client")).toBe(true);
    expect(namesScript("npm run client:web", "client")).toBe(false);
    expect(namesScript("npm run test:fork", "test")).toBe(false);
  });
});
