/**
 * What removing optional parts (`npm run features -- remove <name>…`, their `fork:remove:<name>` data) may not leave behind,
 * checked in a copy after the removal: no doc (a README, `.env.example`, a settings table) naming a removed file, folder,
 * tool, prompt, resource, skill, setting or npm script, or a setting no code left reads; every dependency left in
 * `package.json` still used.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkoutFiles } from "../../server/build/dev/optional-parts.mjs";
import { isCodeFile, packageUsed } from "../../server/build/dev/removal-plan.mjs";
import { namesDefinition, namesScript, removedNames } from "./removed-names.mjs";

/** The checkout's files: git's list (tracked and new, nothing ignored), or every file of a copy that is no repository (a fork proof's). */
export function sourceFiles(root) {
  try {
    return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    })
      .split("\0")
      .filter((file) => file && existsSync(join(root, file)));
  } catch {
    return checkoutFiles(root);
  }
}

/**
 * The first line of a record a run writes (the bench's and the soak's results): it says what was measured then, so a
 * removal leaves it as it was and the doc checks pass it by.
 * @example writeFileSync("results.md", [RECORD_MARK, "# Results", ...rows].join("\n"));
 */
export const RECORD_MARK = "<!-- a record of one run, left as it was measured -->";

/** The docs a removal must leave clean: READMEs, `.env.example`, and the settings tables that remain. */
const isDoc = (file) => file.endsWith(".md") || file === ".env.example" || /(^|\/)settings\.ts$/.test(file);

/**
 * `text` names `path` (a file or folder from the root, or its tail from a folder on), not as part of a longer path; a tail
 * that is also the path or the tail of a file in `kept` (`routes/mcp.post.ts`) names that file instead.
 */
function names(text, path, kept = []) {
  const segments = path.split("/");
  return segments.slice(0, -1).some((_, start) => {
    const tail = segments.slice(start).join("/");
    if (kept.some((file) => file === tail || file.endsWith(`/${tail}`))) return false;
    return new RegExp(`(?<![\\w./-])${tail.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`).test(text);
  });
}

/**
 * `text` names the test file `file` (`tests/<folder>/<stem>.test.ts`) as the docs' lists of tests do, in a code span: after its
 * folder, or alone when the stem is no plain word, with or without `.test.ts` (`e2e/client`, `tasks-node.test.ts`),
 * unless a file in `kept` has that stem.
 */
function namesTest(text, file, kept) {
  const [, folder, stem] = /^tests\/(?:.*\/)?([^/]+)\/([^/]+)\.test\.ts$/.exec(file) ?? [];
  if (!stem || kept.some((other) => other.endsWith(`/${stem}.test.ts`))) return false;
  const name = stem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const prefix = /[-_.]/.test(stem) ? `(?:${folder}/)?` : `${folder}/`;
  return new RegExp(`\`${prefix}${name}(?:\\.test\\.ts)?\``).test(text);
}

/** A doc's prose: its `fork:remove` data left out (it names what its part removes, present or not). */
const proseOf = (text) => text.replace(/<!-- fork:remove:([\w-]+):start -->[\s\S]*?<!-- fork:remove:\1:end -->/g, "");

/**
 * True when a file of the copy (besides the docs, package.json and the lockfiles) or a script uses `dependency`, or
 * package.json pins it in `overrides`; `@types/*` serve the type-checker (the picker's own test of use). A peer of a used
 * dependency, such as ioredis for unstorage's Redis driver, is checked by the caller.
 */
const isUsed = (copy, files, pkg, dependency) =>
  packageUsed(
    pkg,
    dependency,
    files.filter(isCodeFile).map((file) => readFileSync(join(copy, file), "utf8")),
  );

/** Code the server runs, builds with or ships as a program, its comments left out: where a setting can be read. */
function serverCode(copy, files) {
  return files
    .filter((file) => /^(?:(?:server|routes|utils)\/.*\.(?:ts|mjs|js)|nitro\.config\.ts)$/.test(file))
    .filter((file) => !/(^|\/)settings\.ts$/.test(file))
    .map((file) =>
      readFileSync(join(copy, file), "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/(^|[\s;])\/\/.*$/gm, "$1"),
    );
}

/**
 * The `NITRO_MCP_*` variables the docs of `copy` name that no code there reads: a setting whose key (in the table that
 * declares it) no code uses, or a variable neither declared nor read from the environment.
 */
function settingsNobodyReads(copy, files, docTexts) {
  const keys = new Map(
    files
      .filter((file) => /^server\/.*settings\.ts$/.test(file))
      .flatMap((file) =>
        [...readFileSync(join(copy, file), "utf8").matchAll(/(\w+): setting\(\{\s*env: "([A-Z0-9_]+)"/g)].map(
          (match) => [match[2], match[1]],
        ),
      ),
  );
  const code = serverCode(copy, files);
  const named = new Set(docTexts.flatMap((text) => text.match(/\bNITRO_MCP_[A-Z0-9_]+\b/g) ?? []));
  return [...named].filter((env) => {
    const key = keys.get(env);
    return !code.some((text) => (key ? new RegExp(`\\b${key}\\b`).test(text) : text.includes(env)));
  });
}

/**
 * What the removal of `removed` (optional parts) left behind in `copy`, a copy of `root` after the picker removed them:
 * each problem as one line (empty when clean).
 */
export function leftoversAfterRemoval(root, copy, removed) {
  const after = checkoutFiles(copy);
  const gone = removedNames(root, sourceFiles(root), copy, removed);
  const problems = [];
  const docs = after
    .filter(isDoc)
    .map((doc) => ({ doc, raw: readFileSync(join(copy, doc), "utf8") }))
    .filter(({ raw }) => !raw.startsWith(RECORD_MARK))
    .map(({ doc, raw }) => ({ doc, text: proseOf(raw) }));
  for (const { doc, text } of docs) {
    for (const setting of gone.settings)
      if (new RegExp(`\\b${setting}\\b`).test(text)) problems.push(`${doc} names the removed setting ${setting}`);
    for (const folder of gone.folders)
      if (names(text, folder)) problems.push(`${doc} names the removed folder ${folder}`);
    for (const file of gone.files)
      if (
        !gone.folders.some((folder) => file.startsWith(`${folder}/`)) &&
        (names(text, file, after) || namesTest(text, file, after))
      )
        problems.push(`${doc} names the removed file ${file}`);
    for (const name of gone.names)
      if (namesDefinition(text, name)) problems.push(`${doc} names ${name}, which the removal took`);
    for (const uri of gone.uris) if (text.includes(uri)) problems.push(`${doc} names ${uri}, which the removal took`);
    for (const script of gone.scripts)
      if (namesScript(text, script)) problems.push(`${doc} names npm run ${script}, which the removal took`);
  }
  for (const env of settingsNobodyReads(
    copy,
    after,
    docs.map((entry) => entry.text),
  ))
    problems.push(`the docs name ${env}, which no code reads`);
  const pkg = JSON.parse(readFileSync(join(copy, "package.json"), "utf8"));
  const dependencies = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  const used = dependencies.filter((dependency) => isUsed(copy, after, pkg, dependency));
  // A package not installed yet (package.json ahead of node_modules) has no peers to read.
  const manifest = (dependency) => join(root, "node_modules", dependency, "package.json");
  const peers = new Set(
    used
      .filter((dependency) => existsSync(manifest(dependency)))
      .flatMap((dependency) =>
        Object.keys(JSON.parse(readFileSync(manifest(dependency), "utf8")).peerDependencies ?? {}),
      ),
  );
  for (const dependency of dependencies) {
    if (!used.includes(dependency) && !peers.has(dependency))
      problems.push(`package.json keeps ${dependency}, which nothing left uses`);
  }
  return problems;
}
