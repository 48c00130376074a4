/**
 * A test corner's own packages are installed once, even when several test files ask at the same moment on a fresh clone
 * (two `npm ci` in one folder break each other). `npm` here is a stand-in on PATH that counts its runs and takes its time.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";

const HELPER = new URL("../helpers/own-dependencies.mjs", import.meta.url).href;

/** A corner with a lockfile, and a PATH whose `npm` appends a line to `runs` and sleeps a second. */
function corner() {
  const root = mkdtempSync(join(tmpdir(), "own-deps-"));
  const dir = join(root, "corner");
  const bin = join(root, "bin");
  mkdirSync(dir);
  mkdirSync(bin);
  writeFileSync(join(dir, "package-lock.json"), '{"lockfileVersion":3}');
  const runs = join(root, "runs");
  writeFileSync(runs, "");
  writeFileSync(join(bin, "npm"), `#!/bin/sh\necho "$*" >> "${runs}"\nsleep 1\nmkdir -p node_modules\n`);
  chmodSync(join(bin, "npm"), 0o755);
  const install = () =>
    promisify(execFile)(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `(await import(${JSON.stringify(HELPER)})).ensureOwnDependencies(${JSON.stringify(dir)})`,
      ],
      { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } },
    );
  const count = () => readFileSync(runs, "utf8").split("\n").filter(Boolean).length;
  return { dir, install, count };
}

test("three test files asking at once on a fresh clone: one npm ci, and all three go on", async () => {
  const { install, count } = corner();
  await Promise.all([install(), install(), install()]);
  expect(count()).toBe(1);
  await install();
  expect(count()).toBe(1);
});

test("a changed lockfile installs again; a lock left by a process that died does not block", async () => {
  const { dir, install, count } = corner();
  await install();
  writeFileSync(join(dir, "package-lock.json"), '{"lockfileVersion":3,"packages":{}}');
  mkdirSync(join(dir, ".installing"));
  // A pid no process has: the lock's holder is gone.
  writeFileSync(join(dir, ".installing", "pid"), "2147483646");
  await install();
  expect(count()).toBe(2);
  // A lock whose holder died before writing its pid: taken over once it is old.
  writeFileSync(join(dir, "package-lock.json"), '{"lockfileVersion":3,"packages":{"":{}}}');
  mkdirSync(join(dir, ".installing"));
  utimesSync(join(dir, ".installing"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  await install();
  expect(count()).toBe(3);
});
