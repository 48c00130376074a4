/**
 * What removing optional parts does to a checkout: worked out first on a view of it (nothing written), so that it can be
 * shown (`--dry-run`), type-checked on a copy, and only then written. Written twice, it finds nothing more to do.
 *
 * A part deletes only the files it shipped as it shipped them: each part's data records a hash of every file its
 * removal deletes (`shipped`), and a file whose hash differs, or that has none (one a fork added to a part's folder), is
 * kept and listed as kept: it is the fork's work now.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkoutFiles, optionalParts, withNeeding } from "./optional-parts.mjs";

/** Files whose text may use a package or a helper: code and configuration, not docs, not package.json or its lockfile. */
export const isCodeFile = (file) => /\.(ts|mjs|js|json|yaml)$/.test(file) && !/(^|\/)package(-lock)?\.json$/.test(file);

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * True when `text` names the package `name`: as a module (in quotes, alone or with a subpath, or as a path through
 * node_modules), or as the JSON strings of its path segments separated by commas (as a list of path parts spells it).
 */
export function namesPackage(text, name) {
  const segments = name
    .split("/")
    .map((part) => escaped(JSON.stringify(part)))
    .join(",\\s*");
  return new RegExp(`["'\`/]${escaped(name)}(?:["'\`/]|$)|${segments}`, "m").test(text);
}

/**
 * True when the package `name` is still needed: type packages serve the type-checker, `overrides` pins it, a script runs
 * it, or one of `codeTexts` (the code files left) names it.
 * @param {{ scripts?: Record<string, string>, overrides?: Record<string, unknown> }} pkg package.json
 * @param {string} name
 * @param {string[]} codeTexts
 */
export function packageUsed(pkg, name, codeTexts) {
  if (name.startsWith("@types/") || (pkg.overrides && name in pkg.overrides)) return true;
  if (Object.values(pkg.scripts ?? {}).some((script) => script.includes(name))) return true;
  return codeTexts.some((text) => namesPackage(text, name));
}

/**
 * The files among `files` at `path`, a path of a part's data: that file, or every file under it when it ends with `/` (a
 * folder).
 * @param {string[]} files
 * @param {string} path
 */
export const filesAt = (files, path) =>
  path.endsWith("/") ? files.filter((file) => file.startsWith(path)) : files.filter((file) => file === path);

/** A checkout as the plan leaves it: files deleted, texts changed, nothing written. */
class CheckoutView {
  constructor(root) {
    this.root = root;
    this.files = new Set(checkoutFiles(root));
    this.texts = new Map();
    this.original = new Map();
  }

  has(file) {
    return this.files.has(file);
  }

  /** The files the view still has at `path`. */
  filesAt(path) {
    return filesAt([...this.files], path);
  }

  read(file) {
    if (!this.texts.has(file)) this.texts.set(file, readFileSync(join(this.root, file), "utf8"));
    return this.texts.get(file);
  }

  write(file, text) {
    if (!this.original.has(file)) this.original.set(file, this.read(file));
    this.texts.set(file, text);
  }

  delete(files) {
    for (const file of files) this.files.delete(file);
  }

  codeTexts(...except) {
    return [...this.files].filter((file) => !except.includes(file) && isCodeFile(file)).map((file) => this.read(file));
  }
}

/** `text` with one edit made (see optional-parts.mjs for the kinds). */
function edited(text, edit) {
  if ("dropLines" in edit) {
    const pattern = new RegExp(edit.dropLines);
    return text
      .split("\n")
      .filter((line) => !pattern.test(line))
      .join("\n");
  }
  if ("dropSection" in edit) {
    const lines = text.split("\n");
    const start = lines.indexOf(`# feature:${edit.dropSection}`);
    const end = lines.indexOf(`# end feature:${edit.dropSection}`, start);
    return start === -1 || end === -1 ? text : [...lines.slice(0, start), ...lines.slice(end + 1)].join("\n");
  }
  return text.replace(new RegExp(edit.replace, edit.flags ?? ""), edit.with);
}

/** The removal data of the part `name` (a pattern: `[\w-]+` is every part's), with the blank lines before it. */
const dataBlock = (name) => `\\n*<!-- fork:remove:(${name}):start -->[\\s\\S]*?<!-- fork:remove:\\1:end -->`;

/**
 * The hash a part's `shipped` data records for `file`, whose text is `text`: of that text with no removal data in it and
 * every edit of `parts` (the parts the checkout has) made, the form it has once every part is gone. So neither the
 * edits of parts removed before it nor changes to a README's data make a file look changed; a fork's own change does.
 * Blank lines do not count: edits made in another order leave a different number of them where removed text met.
 * @param {string} file
 * @param {string} text
 * @param {{ data: Record<string, any> }[]} parts
 */
export function shippedHash(file, text, parts) {
  let form = text.replace(new RegExp(dataBlock("[\\w-]+"), "g"), "");
  for (const { data } of parts)
    for (const change of data.edits ?? []) if (change.file === file) form = edited(form, change);
  return createHash("sha256")
    .update(form.replace(/^[ \t]*\n/gm, ""))
    .digest("hex")
    .slice(0, 16);
}

/**
 * The plan for removing the `named` parts (from optional-parts.mjs) from the checkout at `root`: what each step takes, in this
 * order for all parts together, so the order they are named in never matters: the listed files and folders, then the
 * shared helpers no file left names, the doc edits, the scripts, and the packages nothing left uses. A file the part
 * did not ship as it is now is kept (`kept`: `edited`, or `not shipped` when the part has no record of it).
 * @param {string} root
 * @param {{ name: string, readme: string, data: Record<string, any> }[]} named the parts asked for; those that need one
 *   of them (`needs`) go too, and `parts` lists them all
 * @returns {{
 *   parts: string[],
 *   deleted: { path: string, files: string[], whole: boolean }[],
 *   kept: { file: string, part: string, reason: "edited" | "not shipped" }[],
 *   edits: { file: string, before: string, after: string }[],
 *   scripts: string[],
 *   packages: string[],
 *   warnings: { name: string, warning: string }[],
 * }} `whole`: a folder deleted with all it holds (installs and caches included), nothing in it kept
 */
export function planRemoval(root, named) {
  const view = new CheckoutView(root);
  const present = optionalParts(root);
  const parts = withNeeding(present, named);
  const deleted = [];
  const kept = [];
  /** Takes what `part` shipped at `path` out of the view; true when it took anything. */
  const take = (path, part) => {
    const shipped = part.data.shipped ?? {};
    const files = view.filesAt(path);
    const asShipped = files.filter((file) => shipped[file] === shippedHash(file, view.read(file), present));
    const forks = files.filter((file) => !asShipped.includes(file));
    for (const file of forks)
      if (!kept.some((entry) => entry.file === file))
        kept.push({ file, part: part.name, reason: file in shipped ? "edited" : "not shipped" });
    if (asShipped.length === 0) return false;
    view.delete(asShipped);
    deleted.push({ path, files: asShipped, whole: path.endsWith("/") && forks.length === 0 });
    return true;
  };
  const edit = (change) => {
    if (!view.has(change.file)) return;
    // What two parts use waits for the last of them: no code file left, but the one edited, names `whenUnnamed`.
    if (change.whenUnnamed && view.codeTexts(change.file).some((text) => text.includes(change.whenUnnamed))) return;
    const after = edited(view.read(change.file), change);
    if (after !== view.read(change.file)) view.write(change.file, after);
  };

  for (const part of parts) for (const path of part.data.delete ?? []) take(path, part);
  for (const part of parts)
    for (const { path, namedAs, tests = [], edits = [] } of part.data.deleteWhenUnnamed ?? [])
      if (
        view.has(path) &&
        !view.codeTexts(path, ...tests).some((text) => text.includes(namedAs)) &&
        take(path, part)
      ) {
        for (const test of tests) take(test, part);
        for (const change of edits) edit(change);
      }
  for (const { data } of parts) for (const change of data.edits ?? []) edit(change);
  // A part whose README stays (the examples' is the top README) takes its own data with it.
  for (const { name, readme } of parts) edit({ file: readme, replace: dataBlock(name), with: "" });

  const scripts = [];
  const packages = [];
  if (view.has("package.json")) {
    const pkg = JSON.parse(view.read("package.json"));
    for (const { data } of parts)
      for (const script of data.scripts ?? [])
        if (pkg.scripts && script in pkg.scripts) {
          delete pkg.scripts[script];
          scripts.push(script);
        }
    for (const { data } of parts)
      for (const entry of data.packages ?? []) {
        const { name, edits = [] } = typeof entry === "string" ? { name: entry } : entry;
        const listed = ["dependencies", "devDependencies"].filter((field) => pkg[field] && name in pkg[field]);
        if (listed.length === 0 || packageUsed(pkg, name, view.codeTexts())) continue;
        for (const field of listed) delete pkg[field][name];
        packages.push(name);
        for (const change of edits) edit(change);
      }
    if (scripts.length > 0 || packages.length > 0) view.write("package.json", `${JSON.stringify(pkg, null, 2)}\n`);
  }

  return {
    parts: parts.map((part) => part.name),
    deleted,
    kept,
    edits: [...view.original].map(([file, before]) => ({ file, before, after: view.read(file) })),
    scripts,
    packages,
    warnings: parts
      .filter((part) => part.data.warning)
      .map((part) => ({ name: part.name, warning: part.data.warning })),
  };
}

/** True when the plan changes nothing (its parts are gone already). */
export const isEmptyPlan = (plan) => plan.deleted.length === 0 && plan.edits.length === 0;

/** Removes `dir` and then each parent up to `root` while they are empty (git keeps no empty folder either). */
function removeEmptyFolders(root, dir) {
  for (let folder = dir; folder !== "." && folder !== ""; folder = dirname(folder)) {
    const path = join(root, folder);
    if (!existsSync(path) || !statSync(path).isDirectory() || readdirSync(path).length > 0) return;
    rmdirSync(path);
  }
}

/** Writes `plan` into the checkout at `root` (the one it was planned on, or a copy of it). */
export function applyRemoval(root, plan) {
  const paths = plan.deleted.flatMap(({ path, files, whole }) => (whole ? [path] : files));
  for (const path of paths) rmSync(join(root, path), { recursive: true, force: true });
  for (const { file, after } of plan.edits) writeFileSync(join(root, file), after);
  for (const path of paths) removeEmptyFolders(root, dirname(path.replace(/\/$/, "")));
}
