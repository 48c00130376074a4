/**
 * What a feature's removal (`fork:remove:<name>`) may not leave behind (issue 19: "no dead setting, no dangling doc"),
 * checked in a copy after the removal: no README, `.env.example` or settings table still names a removed feature's
 * settings, folder or files, and every dependency left in `package.json` is still used.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** The folder a feature's removal deletes (the terminal client's is `server/dev`). */
export const featureFolder = (name) => (name === "dev" ? "server/dev" : `server/features/${name}`);

/** The variables a feature's settings.ts declares. */
function settingsOf(root, name) {
  const file = join(root, featureFolder(name), "settings.ts");
  return existsSync(file)
    ? [...readFileSync(file, "utf8").matchAll(/env: "([A-Z0-9_]+)"/g)].map((match) => match[1])
    : [];
}

/** Every file of a checkout, from the root (no installed packages, no build output, no caches). */
const SKIPPED = /^(?:node_modules|\.git|\.cache|\.nitro|\.output.*|\.data|\.vercel)$/;
function filesOf(root, dir = "") {
  return readdirSync(join(root, dir)).flatMap((name) => {
    if (SKIPPED.test(name)) return [];
    const path = dir ? `${dir}/${name}` : name;
    return statSync(join(root, path)).isDirectory() ? filesOf(root, path) : [path];
  });
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
    return filesOf(root);
  }
}

/** The docs a removal must leave clean: READMEs, `.env.example`, and the settings tables that remain. */
const isDoc = (file) => file.endsWith(".md") || file === ".env.example" || /(^|\/)settings\.ts$/.test(file);

/** `text` names `path` (a file or folder from the root, or its tail from a folder on), not as part of a longer path. */
function names(text, path) {
  const segments = path.split("/");
  return segments.slice(0, -1).some((_, start) => {
    const tail = segments
      .slice(start)
      .join("/")
      .replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?<![\\w./-])${tail}(?![\\w-])`).test(text);
  });
}

/**
 * True when some file of the copy besides package.json, the lockfiles and the docs names `dependency` (as a module, or as
 * the path segments of its folder in node_modules), or a script runs it, or package.json pins it in `overrides`; `@types/*`
 * serve the type-checker. (A peer of a used dependency, such as ioredis for unstorage's Redis driver, is checked by the caller.)
 */
function isUsed(copy, files, pkg, dependency) {
  if (dependency.startsWith("@types/") || (pkg.overrides && dependency in pkg.overrides)) return true;
  if (Object.values(pkg.scripts ?? {}).some((script) => script.includes(dependency))) return true;
  const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const named = new RegExp(
    `["'\`/]${escaped(dependency)}(?:["'\`/]|$)|${dependency
      .split("/")
      .map((part) => escaped(JSON.stringify(part)))
      .join(",\\s*")}`,
    "m",
  );
  return files.some(
    (file) =>
      !file.endsWith(".md") &&
      !/(^|\/)package(-lock)?\.json$/.test(file) &&
      /\.(ts|mjs|js|json|yaml)$/.test(file) &&
      named.test(readFileSync(join(copy, file), "utf8")),
  );
}

/**
 * What the removal of `removed` (features, in order) left behind in `copy`, a copy of `root` after their blocks ran:
 * each problem as one line (empty when clean).
 */
export function leftoversAfterRemoval(root, copy, removed) {
  const features = removed.filter((name) => name !== "examples");
  const before = sourceFiles(root);
  const after = filesOf(copy);
  const afterSet = new Set(after);
  // The files the features' blocks removed: theirs, and their tests (the examples' own are the top README's business).
  const gone = before.filter(
    (file) =>
      !afterSet.has(file) &&
      !/example/.test(file) &&
      (!file.startsWith("server/") || features.some((name) => file.startsWith(`${featureFolder(name)}/`))),
  );
  const settings = features.flatMap((name) => settingsOf(root, name));
  const problems = [];
  for (const doc of after.filter(isDoc)) {
    const text = readFileSync(join(copy, doc), "utf8");
    for (const setting of settings)
      if (new RegExp(`\\b${setting}\\b`).test(text)) problems.push(`${doc} names the removed setting ${setting}`);
    for (const name of features)
      if (names(text, featureFolder(name))) problems.push(`${doc} names the removed folder ${featureFolder(name)}`);
    for (const file of gone)
      if (!features.some((name) => file.startsWith(`${featureFolder(name)}/`)) && names(text, file))
        problems.push(`${doc} names the removed file ${file}`);
  }
  const pkg = JSON.parse(readFileSync(join(copy, "package.json"), "utf8"));
  const dependencies = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies });
  const used = dependencies.filter((dependency) => isUsed(copy, after, pkg, dependency));
  const peers = new Set(
    used.flatMap((dependency) =>
      Object.keys(
        JSON.parse(readFileSync(join(root, "node_modules", dependency, "package.json"), "utf8")).peerDependencies ?? {},
      ),
    ),
  );
  for (const dependency of dependencies) {
    if (!used.includes(dependency) && !peers.has(dependency))
      problems.push(`package.json keeps ${dependency}, which nothing left uses`);
  }
  return problems;
}
