/**
 * The `shipped` field of a part's README data (its fork:remove block): the hash of every file its removal deletes, as the
 * file is now. The feature picker deletes a file only while it still has that hash (removal-plan.mjs). Written by
 * `npm run features -- record NAME…` (features.mjs): a fork records a part of its own, so that its removal deletes its
 * files; the template's maintainers record every part again after changing one (`record --all --again`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkoutFiles, optionalParts } from "./optional-parts.mjs";
import { filesAt, shippedHash } from "./removal-plan.mjs";

/**
 * What `part`'s `shipped` data should be in the checkout at `root`: each file its removal may delete (listed, in its
 * folders, or a shared helper), with its hash now, by path.
 * @param {string} root
 * @param {{ data: Record<string, any> }} part
 * @param {{ data: Record<string, any> }[]} parts the checkout's parts, whose edits the hash takes into account
 * @returns {Record<string, string>}
 */
export function shippedRecord(root, part, parts) {
  const files = checkoutFiles(root);
  const paths = [
    ...(part.data.delete ?? []),
    ...(part.data.deleteWhenUnnamed ?? []).flatMap((entry) => [entry.path, ...(entry.tests ?? [])]),
  ];
  const covered = [...new Set(paths.flatMap((path) => filesAt(files, path)))].sort();
  return Object.fromEntries(
    covered.map((file) => [file, shippedHash(file, readFileSync(join(root, file), "utf8"), parts)]),
  );
}

/** `json`, a part's data as its README spells it, with `record` as its last field, `shipped`, one file a line. */
function withRecord(json, record) {
  const entries = Object.entries(record).map(([file, hash]) => `    ${JSON.stringify(file)}: ${JSON.stringify(hash)}`);
  const field = `,\n  "shipped": {\n${entries.join(",\n")}\n  }`;
  const written = json.replace(/,\n {2}"shipped": \{[^}]*\}/, "").replace(/\n\}\s*$/, `${field}\n}\n`);
  if (JSON.stringify(JSON.parse(written).shipped) !== JSON.stringify(record))
    throw new Error(`could not write "shipped" into:\n${json}`);
  return written;
}

/**
 * Writes the `shipped` data of every part in the checkout at `root`, or of the parts named.
 * @param {string} root
 * @param {string[]} [names] the parts to record (none: all)
 * @returns {string[]} the READMEs it changed
 */
export function recordShipped(root, names = []) {
  const parts = optionalParts(root);
  const unknown = names.filter((name) => !parts.some((part) => part.name === name));
  if (unknown.length > 0) throw new Error(`not an optional part of this checkout: ${unknown.join(", ")}`);
  const changed = [];
  for (const part of parts) {
    if (names.length > 0 && !names.includes(part.name)) continue;
    const readme = join(root, part.readme);
    const text = readFileSync(readme, "utf8");
    const block = new RegExp(
      `(<!-- fork:remove:${part.name}:start -->\\s*\`\`\`json\\n)([\\s\\S]*?)(\`\`\`\\s*<!-- fork:remove:${part.name}:end -->)`,
    );
    const recorded = shippedRecord(root, part, parts);
    const updated = text.replace(block, (_, open, json, close) => `${open}${withRecord(json, recorded)}${close}`);
    if (updated === text) continue;
    writeFileSync(readme, updated);
    changed.push(part.readme);
  }
  return changed;
}
