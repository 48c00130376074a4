#!/usr/bin/env node
/**
 * `npm run features`: the optional parts of this server (the examples, each feature, the terminal client, the template's
 * own upkeep), what each is and costs; `npm run features -- remove NAME…` (or `--all`) takes them out, `--dry-run` shows
 * what would go; `npm run features -- record NAME…` records what a part of your own ships, so that its removal deletes its
 * files. What a part removes is data in its README (optional-parts.mjs); the removal is type-checked on a copy before the
 * checkout is touched (checked-removal.mjs).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { codeLines, productionFiles } from "../../../tests/helpers/production-lines.mjs";
import { prepareTypes, typeChecksAfter } from "./checked-removal.mjs";
import { optionalParts } from "./optional-parts.mjs";
import { recordShipped } from "./record-shipped.mjs";
import { applyRemoval, isEmptyPlan, planRemoval } from "./removal-plan.mjs";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const USAGE = `npm run features                              the optional parts, what each is and costs
npm run features -- remove NAME…              removes them (and their tests, docs, settings and packages)
npm run features -- remove --all              removes every optional part
npm run features -- remove … --dry-run        shows every file that would be deleted and every edit, changes nothing
npm run features -- record NAME…              records the files a part of your own ships as they are now (its data's
                                              "shipped"), so that removing it deletes them; without, it keeps them
npm run features -- record NAME… --again      records a part that has a record again (yours, after you changed it)`;

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** The production lines of code among the files `plan` deletes. */
function linesRemoved(plan) {
  const production = new Set(productionFiles(ROOT));
  return plan.deleted
    .flatMap((entry) => entry.files)
    .filter((file) => production.has(file))
    .reduce((sum, file) => sum + codeLines(readFileSync(join(ROOT, file), "utf8")), 0);
}

function list() {
  const parts = optionalParts(ROOT);
  if (parts.length === 0) return console.log("No optional part is left: this is the minimal server.");
  console.log(`The optional parts of this server (${parts.length}):\n`);
  const width = Math.max(...parts.map((part) => part.name.length));
  for (const part of parts) {
    const plan = planRemoval(ROOT, [part]);
    const packages = plan.packages.length > 0 ? `; only it uses ${plan.packages.join(", ")}` : "";
    const along = plan.parts.filter((name) => name !== part.name);
    const needing =
      along.length > 0 ? ` (with ${along.join(", ")}, which need${along.length === 1 ? "s" : ""} it)` : "";
    const cost = `${String(linesRemoved(plan)).padStart(5)} lines`;
    console.log(
      `  ${part.data.warning ? "⚠" : " "} ${part.name.padEnd(width)} ${cost}  ${part.data.about}${needing}${packages}`,
    );
  }
  console.log(`
lines: its production code (not tests, not dev programs); "only it uses": the npm packages that go with it. ⚠: removing
it costs your users something, said when it goes.

${USAGE}`);
}

/** The lines of `after` that differ from `before`, as `-` and `+` lines (a longest common subsequence of lines). */
function lineChanges(before, after) {
  const a = before.split("\n");
  const b = after.split("\n");
  const common = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
  const changes = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i++;
      j++;
    } else if (i < a.length && (j === b.length || common[i + 1][j] >= common[i][j + 1])) changes.push(`- ${a[i++]}`);
    else changes.push(`+ ${b[j++]}`);
  }
  return changes;
}

/** What `plan` deletes, keeps and edits, every file and changed line when `detailed`. */
function describe(plan, detailed) {
  for (const { path, files } of plan.deleted) {
    if (!path.endsWith("/") || !detailed) {
      console.log(`  delete ${path}${path.endsWith("/") ? ` (${plural(files.length, "file")})` : ""}`);
      continue;
    }
    console.log(`  delete ${path}`);
    for (const file of files) console.log(`    ${file}`);
  }
  for (const { file, reason } of plan.kept) {
    const why = reason === "edited" ? "it differs from what the template shipped" : "the template did not ship it";
    console.log(`  keep ${file}: ${why} (yours now: delete it if you do not need it)`);
  }
  for (const { file, before, after } of plan.edits) {
    const changes = lineChanges(before, after);
    const removed = changes.filter((line) => line.startsWith("-")).length;
    console.log(`  edit ${file} (${removed} lines out, ${changes.length - removed} in)`);
    if (detailed) for (const line of changes) console.log(`    ${line}`);
  }
  if (plan.scripts.length > 0) console.log(`  npm scripts dropped: ${plan.scripts.join(", ")}`);
  if (plan.packages.length > 0) console.log(`  packages dropped from package.json: ${plan.packages.join(", ")}`);
}

function remove(args) {
  const dryRun = args.includes("--dry-run");
  const names = args.filter((arg) => !arg.startsWith("--"));
  const parts = optionalParts(ROOT);
  if (args.includes("--all")) names.push(...parts.map((part) => part.name));
  if (names.length === 0 && !args.includes("--all")) {
    console.error(`Name the parts to remove (or --all):\n\n${USAGE}`);
    return 2;
  }
  const known = new Set(parts.map((part) => part.name));
  const chosen = parts.filter((part) => names.includes(part.name));
  for (const name of new Set(names.filter((name) => !known.has(name))))
    console.log(`${name}: not an optional part of this checkout (removed already, or misspelt)`);
  const plan = planRemoval(ROOT, chosen);
  if (isEmptyPlan(plan)) {
    console.log(`Nothing to remove${known.size > 0 ? `; the optional parts left: ${[...known].join(", ")}` : ""}.`);
    return 0;
  }

  console.log(`${dryRun ? "Would remove" : "Removing"} ${plan.parts.join(", ")}:`);
  for (const part of parts.filter((part) => plan.parts.includes(part.name) && !chosen.includes(part)))
    console.log(`  ${part.name} goes too: it needs ${part.data.needs.join(", ")}`);
  describe(plan, dryRun);
  for (const { name, warning } of plan.warnings) console.log(`\n⚠ ${name}: ${warning}`);
  if (dryRun) return 0;

  console.log("\nType-checking the result in a copy first (nitropack prepare, tsc --noEmit)…");
  const checked = typeChecksAfter(ROOT, plan);
  if (!checked.ok) {
    const first = checked.printed.trim().split("\n").slice(0, 20).join("\n");
    console.error(`\nNothing was changed: without ${plan.parts.join(", ")} the tree would not type-check:\n\n${first}`);
    return 1;
  }
  applyRemoval(ROOT, plan);
  const prepared = prepareTypes(ROOT);
  if (!prepared.ok) console.error(`nitropack prepare failed; run it again:\n${prepared.printed}`);
  console.log(`Removed ${plan.parts.join(", ")}.`);
  if (plan.packages.length > 0) console.log("package-lock.json still lists the dropped packages: run npm install.");
  return 0;
}

/**
 * Records the `shipped` data of the parts named (a fork's own). A part that has a record already needs `--again`: the
 * template's parts have one, and recording them again would make a fork's edits to their files look shipped (deletable).
 */
function record(args) {
  const parts = optionalParts(ROOT);
  const names = args.includes("--all") ? parts.map((part) => part.name) : args.filter((arg) => !arg.startsWith("--"));
  if (names.length === 0) {
    console.error(`Name the parts to record:\n\n${USAGE}`);
    return 2;
  }
  const recorded = parts.filter((part) => names.includes(part.name) && part.data.shipped);
  if (recorded.length > 0 && !args.includes("--again")) {
    const listed = recorded.map((part) => part.name).join(", ");
    console.error(`${listed}: recorded already (the template's parts are); --again records your changes as shipped.`);
    return 1;
  }
  try {
    const changed = recordShipped(ROOT, names);
    console.log(changed.length > 0 ? `Recorded in ${changed.join(", ")}.` : "Already recorded as the files are now.");
    return 0;
  } catch (error) {
    console.error(error.message);
    return 1;
  }
}

const [command, ...args] = process.argv.slice(2);
if (command === undefined || command === "list") list();
else if (command === "remove") process.exitCode = remove(args);
else if (command === "record") process.exitCode = record(args);
else {
  console.log(USAGE);
  process.exitCode = command === "--help" || command === "help" ? 0 : 2;
}
