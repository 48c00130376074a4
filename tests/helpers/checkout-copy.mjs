/** A copy of this checkout in a temporary folder, to try something on (a removal, a build) without touching the tree. */
import { cpSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { sourceFiles } from "./leftovers.mjs";

/**
 * Copies the checkout's files (tracked and new, nothing ignored) into a new temporary folder whose name starts with
 * `prefix`, and links the checkout's node_modules there. The caller removes the copy.
 * @param {string} root the checkout
 * @param {string} prefix
 * @returns {string} the copy
 */
export function copyCheckout(root, prefix) {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  for (const file of sourceFiles(root)) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
  return copy;
}
