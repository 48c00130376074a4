/**
 * A removal that never leaves a tree that does not type-check: the plan is written into a copy of the checkout first
 * (its files copied, its installed packages linked), Nitro's generated types are made again there (the routes and
 * auto-imports of what is left), and `tsc --noEmit` runs; only when it passes is the plan written into the checkout.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { checkoutFiles, SKIPPED_FOLDERS } from "./optional-parts.mjs";
import { applyRemoval } from "./removal-plan.mjs";

/** The installed-package folders of a checkout (the root's, and those of a corner with its own package.json). */
function packageFolders(root, dir = "") {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = dir ? `${dir}/${name}` : name;
    if (name === "node_modules") return [path];
    if (SKIPPED_FOLDERS.test(name) || !statSync(join(root, path)).isDirectory()) return [];
    return packageFolders(root, path);
  });
}

/** Runs the command `bin` of the installed package `pkg` with Node in `cwd`: its exit status and what it printed. */
function runBin(cwd, pkg, bin, args) {
  const manifest = join(cwd, "node_modules", pkg, "package.json");
  const { bin: bins } = JSON.parse(readFileSync(manifest, "utf8"));
  const script = join(dirname(manifest), typeof bins === "string" ? bins : bins[bin]);
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  return { ok: result.status === 0, printed: `${result.stdout ?? ""}${result.stderr ?? ""}` };
}

/** Makes Nitro's generated types (`.nitro/types`, which tsconfig.json extends) for the tree at `cwd`. */
export const prepareTypes = (cwd) => runBin(cwd, "nitropack", "nitropack", ["prepare"]);

/**
 * Writes `plan` into a copy of `root` and type-checks the copy.
 * @returns {{ ok: boolean, printed: string }} what failed, when it failed
 */
export function typeChecksAfter(root, plan) {
  const copy = mkdtempSync(join(tmpdir(), "features-"));
  try {
    for (const file of checkoutFiles(root)) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(root, file), join(copy, file));
    }
    for (const folder of packageFolders(root)) {
      mkdirSync(dirname(join(copy, folder)), { recursive: true });
      symlinkSync(join(root, folder), join(copy, folder));
    }
    applyRemoval(copy, plan);
    const prepared = prepareTypes(copy);
    if (!prepared.ok) return prepared;
    return runBin(copy, "typescript", "tsc", ["--noEmit", "--pretty", "false"]);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
