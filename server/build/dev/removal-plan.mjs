/**
 * What removing optional parts does to a checkout: worked out first on a view of it (nothing written), so that it can be
 * shown (`--dry-run`), type-checked on a copy, and only then written. Written twice, it finds nothing more to do.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkoutFiles } from "./optional-parts.mjs";

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

  /** The files the view still has at `path`: that file, or every file under it when it ends with `/` (a folder). */
  filesAt(path) {
    return path.endsWith("/")
      ? [...this.files].filter((file) => file.startsWith(path))
      : this.files.has(path)
        ? [path]
        : [];
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

  codeTexts(except = "") {
    return [...this.files].filter((file) => file !== except && isCodeFile(file)).map((file) => this.read(file));
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

/**
 * The plan for removing `parts` (from optional-parts.mjs) from the checkout at `root`: what each step takes, in this
 * order for all parts together, so the order they are named in never matters: the listed files and folders, then the
 * shared helpers no file left names, the doc edits, the scripts, and the packages nothing left uses.
 * @param {string} root
 * @param {{ name: string, readme: string, data: Record<string, any> }[]} parts
 * @returns {{
 *   parts: string[],
 *   deleted: { path: string, files: string[] }[],
 *   edits: { file: string, before: string, after: string }[],
 *   scripts: string[],
 *   packages: string[],
 *   warnings: { name: string, warning: string }[],
 * }}
 */
export function planRemoval(root, parts) {
  const view = new CheckoutView(root);
  const deleted = [];
  const take = (path) => {
    const files = view.filesAt(path);
    if (files.length === 0) return;
    view.delete(files);
    deleted.push({ path, files });
  };
  const edit = (change) => {
    if (!view.has(change.file)) return;
    // What two parts use waits for the last of them: no code file left, but the one edited, names `whenUnnamed`.
    if (change.whenUnnamed && view.codeTexts(change.file).some((text) => text.includes(change.whenUnnamed))) return;
    const after = edited(view.read(change.file), change);
    if (after !== view.read(change.file)) view.write(change.file, after);
  };

  for (const { data } of parts) for (const path of data.delete ?? []) take(path);
  for (const { data } of parts)
    for (const { path, namedAs, edits = [] } of data.deleteWhenUnnamed ?? [])
      if (view.has(path) && !view.codeTexts(path).some((text) => text.includes(namedAs))) {
        take(path);
        for (const change of edits) edit(change);
      }
  for (const { data } of parts) for (const change of data.edits ?? []) edit(change);
  // A part whose README stays (the examples' is the top README) takes its own data with it.
  for (const { name, readme } of parts)
    edit({
      file: readme,
      replace: `\\n*<!-- fork:remove:${name}:start -->[\\s\\S]*?<!-- fork:remove:${name}:end -->`,
      with: "",
    });

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
  for (const { path } of plan.deleted) rmSync(join(root, path), { recursive: true, force: true });
  for (const { file, after } of plan.edits) writeFileSync(join(root, file), after);
  for (const { path } of plan.deleted) removeEmptyFolders(root, dirname(path.replace(/\/$/, "")));
}
