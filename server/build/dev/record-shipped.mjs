#!/usr/bin/env node
/**
 * `npm run features:shipped`, for the template's maintainers: writes into each optional part's data (the `shipped` field
 * of its README's fork:remove block) the hash of every file its removal deletes, as the file is now. The feature picker
 * deletes a file only while it still has that hash (removal-plan.mjs), so run this after changing a part's file;
 * tests/unit/shipped-record.test.ts fails until then. That command is the template's upkeep and goes with it: in a fork,
 * recording every part would make the fork's own changes to the template's parts look like the template's.
 *
 * `npm run features -- record NAME…` records only the parts named (features.mjs): a fork's own part, so that its removal
 * deletes its files (without a record it keeps them all, as files the template did not ship).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const changed = recordShipped(fileURLToPath(new URL("../../..", import.meta.url)));
  console.log(
    changed.length > 0
      ? `Recorded the shipped files' hashes in ${changed.join(", ")}.`
      : "Every part's shipped files are recorded as they are.",
  );
}
