/**
 * The optional parts of a checkout, as their READMEs declare them: a README holding a ```json block between
 * `<!-- fork:remove:<name>:start -->` and `<!-- fork:remove:<name>:end -->` describes one part that `npm run features`
 * can remove. The data lives beside the part (a feature's own README), so adding a feature never edits the picker.
 *
 * A part's data (every field but `about` optional):
 * - `about`: what it is, in a few words;
 * - `warning`: what removing it costs users, printed when it goes;
 * - `needs`: the parts it cannot work without: removing one of them removes this part too;
 * - `delete`: paths from the root, each a file, or a folder when it ends with `/` (the part's own folders only: a folder
 *   someone adds files to is listed file by file, so their files stay);
 * - `deleteWhenUnnamed`: `{ "path", "namedAs", "tests", "edits" }`, deleted once no code file left but its own `tests`
 *   contains `namedAs` (a helper two parts share), its tests and edits going with it;
 * - `edits`: `{ "file", ... }` with one of `dropLines` (a regex: every matching line goes), `dropSection` (the lines
 *   from `# feature:<name>` to `# end feature:<name>`, as `.env.example` marks them) or `replace` (a regex, with `flags`
 *   and `with`, for text over several lines); `"files": [...]` instead of `"file"` makes the same edit in each;
 * - `scripts`: npm scripts dropped from package.json;
 * - `packages`: dependencies dropped from package.json once nothing left uses them, each a name or `{ "name", "edits" }`
 *   (edits made only when the package goes);
 * - `shipped`: `{ "<file>": "<hash>" }`, every file the part's removal deletes, as the template shipped it
 *   (removal-plan.mjs, `shippedHash`): a file that no longer matches, or has no entry, is the fork's and stays;
 * - `conformance`: what the part answers for in the conformance run (tests/conformance/runs.mjs), so that a checkout
 *   without it runs none of it: `scenarios`, the suite's extension scenarios it implements, and `specVersions`, the
 *   older protocol revisions it serves.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** Folders that hold no part's README: installs, builds, caches. */
export const SKIPPED_FOLDERS = /^(?:node_modules|\.git|\.cache|\.nitro|\.output.*|\.data|\.vercel|\.wrangler|\.runs)$/;

/** Every file of the checkout at `root`, as paths from it, with no installed package, build output or cache. */
export function checkoutFiles(root, dir = "") {
  return readdirSync(join(root, dir)).flatMap((name) => {
    if (SKIPPED_FOLDERS.test(name)) return [];
    const path = dir ? `${dir}/${name}` : name;
    return statSync(join(root, path)).isDirectory() ? checkoutFiles(root, path) : [path];
  });
}

const BLOCK = /<!-- fork:remove:([\w-]+):start -->\s*```json\n([\s\S]*?)```\s*<!-- fork:remove:\1:end -->/g;
const FIELDS = new Set([
  "about",
  "warning",
  "needs",
  "delete",
  "deleteWhenUnnamed",
  "edits",
  "scripts",
  "packages",
  "conformance",
  "shipped",
]);
const CONFORMANCE_FIELDS = ["scenarios", "specVersions"];
const EDIT_KINDS = ["dropLines", "dropSection", "replace"];

/** Throws, naming the README, unless `data` has only the fields above, each of its shape. */
function validate(readme, name, data) {
  const fail = (problem) => {
    throw new Error(`${readme}: the fork:remove:${name} block ${problem}`);
  };
  if (typeof data.about !== "string") fail('has no "about"');
  for (const key of Object.keys(data)) if (!FIELDS.has(key)) fail(`has an unknown field "${key}"`);
  const edits = [
    ...(data.edits ?? []),
    ...[...(data.packages ?? []), ...(data.deleteWhenUnnamed ?? [])].flatMap((entry) => entry.edits ?? []),
  ];
  for (const edit of edits) {
    const kinds = EDIT_KINDS.filter((kind) => kind in edit);
    const files = edit.files ?? [edit.file];
    if (!Array.isArray(files) || files.some((file) => typeof file !== "string") || kinds.length !== 1)
      fail(`has an edit that is not one of ${EDIT_KINDS}`);
    if (kinds[0] === "replace" && typeof edit.with !== "string") fail(`has a "replace" without "with"`);
  }
  const needs = data.needs ?? [];
  if (!Array.isArray(needs) || needs.some((part) => typeof part !== "string"))
    fail('has a "needs" that is not a list of names');
  for (const [key, list] of Object.entries(data.conformance ?? {}))
    if (!CONFORMANCE_FIELDS.includes(key) || !Array.isArray(list) || list.some((item) => typeof item !== "string"))
      fail(`has a "conformance" field that is not { ${CONFORMANCE_FIELDS.join(", ")} } lists of names`);
  if (Object.values(data.shipped ?? {}).some((hash) => typeof hash !== "string"))
    fail('has a "shipped" field that is not { "<file>": "<hash>" }');
}

/** `edits` with each edit of several `files` made one per file. */
const perFile = (edits) =>
  edits?.flatMap(({ files, ...edit }) => (files ? files.map((file) => ({ ...edit, file })) : [edit]));

/** `data` with every list of edits one per file (`files`), as the removal plan reads them. */
const withEditsPerFile = (data) => ({
  ...data,
  edits: perFile(data.edits),
  packages: data.packages?.map((entry) =>
    typeof entry === "string" ? entry : { ...entry, edits: perFile(entry.edits) },
  ),
  deleteWhenUnnamed: data.deleteWhenUnnamed?.map((entry) => ({ ...entry, edits: perFile(entry.edits) })),
});

/** Rank of a part's README in the list: the examples' first, then the features, then the rest. */
const rank = (readme) => (readme === "server/examples/README.md" ? 0 : readme.startsWith("server/features/") ? 1 : 2);

/**
 * The optional parts the checkout at `root` still has, in the order `npm run features` lists them.
 * @param {string} root
 * @returns {{ name: string, readme: string, data: Record<string, any> }[]}
 */
export function optionalParts(root) {
  const parts = [];
  for (const readme of checkoutFiles(root).filter((file) => /(^|\/)README\.md$/.test(file))) {
    for (const [, name, json] of readFileSync(join(root, readme), "utf8").matchAll(BLOCK)) {
      let data;
      try {
        data = JSON.parse(json);
      } catch (error) {
        throw new Error(`${readme}: the fork:remove:${name} block is not JSON (${error.message})`);
      }
      validate(readme, name, data);
      parts.push({ name, readme, data: withEditsPerFile(data) });
    }
  }
  return parts.sort((a, b) => rank(a.readme) - rank(b.readme) || a.readme.localeCompare(b.readme));
}

/**
 * `chosen` and every part of `present` that needs one of them (`needs`), and so on, in `present`'s order.
 * @example withNeeding(optionalParts(root), [store]).map((part) => part.name); // the store and the parts that need it
 * @template {{ name: string, data: { needs?: string[] } }} Part
 * @param {Part[]} present
 * @param {Part[]} chosen
 * @returns {Part[]}
 */
export function withNeeding(present, chosen) {
  const names = new Set(chosen.map((part) => part.name));
  for (let added = true; added; ) {
    added = false;
    for (const part of present) {
      if (names.has(part.name) || !(part.data.needs ?? []).some((name) => names.has(name))) continue;
      names.add(part.name);
      added = true;
    }
  }
  return present.filter((part) => names.has(part.name));
}
