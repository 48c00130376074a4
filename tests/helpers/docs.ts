/**
 * The documentation's runnable blocks: a fenced bash block between `<!-- NAME:start -->` and
 * `<!-- NAME:end -->` in a README is run verbatim by a test, so the docs cannot drift from the code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkoutFiles } from "../../server/build/dev/optional-parts.mjs";

/** Every bash block marked `name` in `file` (a path from the repository root), in order. */
export function docBlocks(file: string, name: string, root = process.cwd()): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const marker = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(
    `<!-- ${marker}:start -->\\s*\`\`\`bash\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${marker}:end -->`,
    "g",
  );
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

/** The one bash block marked `name` in `file`; throws when there is none. */
export function docBlock(file: string, name: string, root = process.cwd()): string {
  const [block] = docBlocks(file, name, root);
  if (block === undefined) throw new Error(`${file} has no ${name} block`);
  return block;
}

/** A walkthrough of a doc (a bash block marked `walkthrough`) and the answers its doc shows for it, one per line. */
export interface Walkthrough {
  file: string;
  script: string;
  answers: string[];
}

/**
 * Every walkthrough in the docs of the checkout at `root`, in the order a reader follows them: the top README's first (it
 * defines `mcp` and `$META`), then the core's, then the others by path. What a walkthrough answers is the first ```json
 * block after it (its doc's "what comes back"), before the next walkthrough; a walkthrough without one throws.
 */
export function walkthroughs(root = process.cwd()): Walkthrough[] {
  const rank = (file: string) => (file === "README.md" ? 0 : file === "server/mcp/README.md" ? 1 : 2);
  const docs = (checkoutFiles(root) as string[])
    .filter((file) => /(^|\/)README\.md$/.test(file))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return docs.flatMap((file) => {
    const text = readFileSync(join(root, file), "utf8");
    const found =
      /<!-- walkthrough:start -->\s*```bash\n([\s\S]*?)```\s*<!-- walkthrough:end -->([\s\S]*?)(?=<!-- walkthrough:start -->|$)/g;
    return [...text.matchAll(found)].map(([, script, after]) => {
      const answers = /^```json\n([\s\S]*?)^```/m.exec(after!)?.[1];
      if (answers === undefined)
        throw new Error(`${file}: a walkthrough shows no answers (a \`\`\`json block after it)`);
      return { file, script: script!, answers: answers.split("\n").filter(Boolean) };
    });
  });
}

/**
 * What differs between an answer a doc shows (`shown`, trimmed with `…` where it says nothing) and the answer a command
 * printed: an error (its code and message) or none, and the values the doc spells out whole: `resultType`, `status`,
 * `text`, `message`, `supportedVersions`, and the HTTP status when it shows one. Empty when they agree.
 */
export function answerDifferences(shown: string, printed: string): string[] {
  const differences: string[] = [];
  const fragments = [
    ...(shown.match(/"(?:code|message|text|resultType|status)":(?:"(?:[^"\\]|\\.)*"|-?\d+)/g) ?? []),
    ...(shown.match(/"supportedVersions":\[[^\]]*\]/g) ?? []),
    ...(shown.match(/HTTP \d{3}$/) ?? []),
  ].filter((fragment) => !fragment.includes("…"));
  for (const fragment of fragments) if (!printed.includes(fragment)) differences.push(`no ${fragment}`);
  for (const flag of ['"error":{', '"isError":true'])
    if (printed.includes(flag) && !shown.includes(flag)) differences.push(`an unexpected ${flag}`);
  return differences;
}
