/**
 * What removing an optional part (`npm run features -- remove <name>`, its `fork:remove:<name>` data) may not leave behind (issue 19: "no dead setting, no dangling doc"),
 * checked in a copy after the removal: no README, `.env.example` or settings table still names a removed feature's
 * settings, folder or files, and every dependency left in `package.json` is still used.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { checkoutFiles } from "../../server/build/dev/optional-parts.mjs";
import { isCodeFile, packageUsed } from "../../server/build/dev/removal-plan.mjs";

/** The folder a feature's removal deletes (the terminal client's is `server/dev`). */
export const featureFolder = (name) => (name === "dev" ? "server/dev" : `server/features/${name}`);

/** The variables a feature's settings.ts declares. */
function settingsOf(root, name) {
  const file = join(root, featureFolder(name), "settings.ts");
  return existsSync(file)
    ? [...readFileSync(file, "utf8").matchAll(/env: "([A-Z0-9_]+)"/g)].map((match) => match[1])
    : [];
}

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

/**
 * What the removal of `removed` (optional parts) left behind in `copy`, a copy of `root` after the picker removed them:
 * each problem as one line (empty when clean).
 */
export function leftoversAfterRemoval(root, copy, removed) {
  const features = removed.filter((name) => name !== "examples");
  const before = sourceFiles(root);
  const after = checkoutFiles(copy);
  const afterSet = new Set(after);
  // The files the parts' removals took: theirs, and their tests (the examples' own are the top README's business).
  const gone = before.filter(
    (file) =>
      !afterSet.has(file) &&
      !/example/.test(file) &&
      (!file.startsWith("server/") || features.some((name) => file.startsWith(`${featureFolder(name)}/`))),
  );
  const settings = features.flatMap((name) => settingsOf(root, name));
  const problems = [];
  for (const doc of after.filter(isDoc)) {
    const text = proseOf(readFileSync(join(copy, doc), "utf8"));
    for (const setting of settings)
      if (new RegExp(`\\b${setting}\\b`).test(text)) problems.push(`${doc} names the removed setting ${setting}`);
    for (const name of features)
      if (names(text, featureFolder(name))) problems.push(`${doc} names the removed folder ${featureFolder(name)}`);
    for (const file of gone)
      if (!features.some((name) => file.startsWith(`${featureFolder(name)}/`)) && names(text, file, after))
        problems.push(`${doc} names the removed file ${file}`);
  }
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
