/**
 * What removing optional parts took from a checkout, worked out from the checkout (`root`, before) and a copy of it after
 * the removal (`copy`): the files and folders, the tools, prompts and resources those files defined (by name and URI), the
 * skills and UIs, the settings and the npm scripts. A doc left in the copy must name none of them (leftovers.mjs).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkoutFiles, optionalParts } from "../../server/build/dev/optional-parts.mjs";

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The definitions in `text`, each a tool's or prompt's name, or a resource's URI (or URI template): what a client calls or
 * reads it by.
 */
export function definitionsIn(text) {
  return [...text.matchAll(/\bdefine(Tool|Prompt|Resource)\(\{([\s\S]*?)\n\}\)/g)].flatMap(([, kind, body]) => {
    const id = (kind === "Resource" ? /^ {2}uri(?:Template)?: "([^"]+)"/m : /^ {2}name: "([^"]+)"/m).exec(body)?.[1];
    return id ? [{ kind, id }] : [];
  });
}

/** What the files of a checkout define, by their ids; a server's (`server/`) apart, since the tests' fixtures are not served. */
function definedIds(root, files) {
  const ids = (scope) =>
    files
      .filter((file) => file.endsWith(".ts") && scope(file))
      .flatMap((file) => definitionsIn(readFileSync(join(root, file), "utf8")));
  return { served: ids((file) => file.startsWith("server/")), all: ids(() => true) };
}

/** The variables the settings tables of a checkout declare (`server/mcp/settings.ts`, each feature's `settings.ts`). */
export const declaredSettings = (root, files) =>
  new Set(
    files
      .filter((file) => /^server\/.*settings\.ts$/.test(file))
      .flatMap((file) => [...readFileSync(join(root, file), "utf8").matchAll(/env: "([A-Z0-9_]+)"/g)].map((m) => m[1])),
  );

const scriptsOf = (root) => Object.keys(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts ?? {});

/**
 * What the removal of the parts named `removed` took.
 * @param {string} root the checkout before
 * @param {string[]} before its files (as `sourceFiles` lists them)
 * @param {string} copy the copy after the removal
 * @param {string[]} removed the parts' names
 */
export function removedNames(root, before, copy, removed) {
  const after = checkoutFiles(copy);
  const afterSet = new Set(after);
  const files = before.filter((file) => !afterSet.has(file));
  // The folders the parts' data deletes whole, and the folder of a part's README (a feature's own) when it went too.
  const folders = optionalParts(root)
    .filter((part) => removed.includes(part.name))
    .flatMap((part) => [
      ...(part.data.delete ?? []).filter((path) => path.endsWith("/")).map((path) => path.slice(0, -1)),
      dirname(part.readme),
    ])
    .filter((folder) => folder !== "." && !existsSync(join(copy, folder)));
  // A definition the server served is gone once no file of the server defines its id (a test fixture may: it is not served).
  const left = definedIds(copy, after);
  const took = definedIds(root, files);
  const keptServed = new Set(left.served.map((found) => found.id));
  const kept = new Set(left.all.map((found) => found.id));
  const definitions = [
    ...took.served.filter((found) => !keptServed.has(found.id)),
    ...took.all.filter((found) => !kept.has(found.id)),
  ];
  // A skill is named by its folder; a UI is served as ui://<its folder>.
  const skillsAndUis = folders.flatMap((folder) => {
    const [, kind, name] = /^server\/(skills|ui)\/([^/]+)$/.exec(folder) ?? [];
    return kind === "skills" ? [name] : kind === "ui" ? [name, `ui://${name}`] : [];
  });
  const settingsLeft = declaredSettings(copy, after);
  const scriptsLeft = new Set(scriptsOf(copy));
  return {
    files,
    folders,
    names: [
      ...new Set([
        ...definitions.filter((found) => found.kind !== "Resource").map((found) => found.id),
        ...skillsAndUis,
      ]),
    ],
    uris: [...new Set(definitions.filter((found) => found.kind === "Resource").map((found) => found.id))],
    settings: [...declaredSettings(root, before)].filter((env) => !settingsLeft.has(env)),
    scripts: scriptsOf(root).filter((script) => !scriptsLeft.has(script)),
  };
}

/**
 * True when `text` names the definition (or skill) `name`: anywhere as a word when it holds `_` or `-` (`delete_note`),
 * and otherwise where prose names a definition (`greet`, "greet", Mcp-Name: greet, greet's schema), not as an English word.
 */
export function namesDefinition(text, name) {
  const word = escaped(name);
  if (/[_-]/.test(name)) return new RegExp(`(?<![\\w-])${word}(?![\\w-])`).test(text);
  return new RegExp(`[\`"']${word}[\`"']|Mcp-Name: ${word}\\b|\\b${word}'s\\b`).test(text);
}

/** True when `text` names the npm script `script` (`npm run client`). */
export const namesScript = (text, script) => new RegExp(`\\bnpm run ${escaped(script)}(?![\\w:-])`).test(text);
