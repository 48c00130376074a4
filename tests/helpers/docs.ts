/**
 * The documentation's runnable blocks: a fenced bash block between `<!-- NAME:start -->` and
 * `<!-- NAME:end -->` in a README is run verbatim by a test, so the docs cannot drift from the code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

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
