/** Every relative link in every Markdown file points at a file that exists, and an anchor at a heading it has. */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { expect, it } from "vitest";

const ROOT = process.cwd();
const SKIPPED = new Set(["node_modules", ".git", ".nitro", ".cache", ".data", ".vercel", ".wrangler"]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name) || name.startsWith(".output")) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith(".md") ? [path] : [];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const anchorsOf = (file: string): Set<string> =>
  new Set([...readFileSync(file, "utf8").matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1]!)));

/** Links written `[text](target)`, outside fenced code blocks. */
function linksOf(file: string): string[] {
  const prose = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

it("every relative link in the docs resolves", () => {
  const files = markdownFiles(ROOT);
  expect(files.map((file) => relative(ROOT, file))).toContain("README.md");
  const broken = files.flatMap((file) =>
    linksOf(file)
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
      .filter((target) => {
        const [path, anchor] = target.split("#") as [string, string | undefined];
        const destination = path ? join(dirname(file), path) : file;
        if (!existsSync(destination)) return true;
        return anchor !== undefined && destination.endsWith(".md") && !anchorsOf(destination).has(anchor);
      })
      .map((target) => `${relative(ROOT, file)} → ${target}`),
  );
  expect(broken).toEqual([]);
});
