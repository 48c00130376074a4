/**
 * The template's upkeep of the `shipped` data (server/build/dev/record-shipped.mjs): every optional part records each
 * file its removal deletes, as the file is now, so the feature picker deletes exactly those and keeps a fork's changes
 * (kept-files.test.ts). A fork that edits a part's file is not wrong, so this file goes with the upkeep.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { expect, it } from "vitest";
import { optionalParts } from "../../server/build/dev/optional-parts.mjs";
import { shippedRecord } from "../../server/build/dev/record-shipped.mjs";
import { applyRemoval, planRemoval } from "../../server/build/dev/removal-plan.mjs";
import { sourceFiles } from "../helpers/leftovers.mjs";

const ROOT = process.cwd();
const PARTS = optionalParts(ROOT);

// A file two parts delete (sign-in's example test: the examples' and sign-in's) stays in the one's record after a fork
// removed the other; the picker deletes only files that exist, so the entry is harmless and the record still true.
it.each(PARTS.map((part) => part.name))("%s: its data records the files it removes as they are now", (name) => {
  const part = PARTS.find((entry) => entry.name === name)!;
  const present = Object.entries(part.data.shipped ?? {}).filter(([file]) => existsSync(join(ROOT, file)));
  expect(Object.fromEntries(present), "run npm run features:shipped").toEqual(shippedRecord(ROOT, part, PARTS));
});

// One part's edits change another's files (sign-in's, an example's scopes): removed in any order, no file looks changed.
it.each([
  ["in the order listed", PARTS.map((part) => part.name)],
  ["in the reverse order", PARTS.map((part) => part.name).reverse()],
])("removing the parts one by one %s keeps no file", (_, names) => {
  const copy = mkdtempSync(join(tmpdir(), "shipped-record-"));
  try {
    for (const file of sourceFiles(ROOT)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file));
    }
    for (const name of names) {
      const plan = planRemoval(
        copy,
        optionalParts(copy).filter((part) => part.name === name),
      );
      expect(plan.kept, `removing ${name} after ${names.slice(0, names.indexOf(name)).join(", ")}`).toEqual([]);
      applyRemoval(copy, plan);
    }
    expect(optionalParts(copy)).toEqual([]);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
