/**
 * Lines of production code in a checkout: every `.ts` and `.mjs` file under `server/`, `routes/` and `utils/`, and
 * `nitro.config.ts`; not the development programs (any `dev/` folder: the terminal client, a feature's, the build's), not the tests. Blank lines and comments count: it
 * is what a reader of the fork has to read.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** @param {string} root @param {string} dir @returns {string[]} */
function sources(root, dir) {
  if (!existsSync(join(root, dir)) || dir.endsWith("/dev")) return [];
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return sources(root, path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

/** @param {string} root the checkout @returns {string[]} */
export const productionFiles = (root) => [
  ...["server", "routes", "utils"].flatMap((dir) => sources(root, dir)),
  "nitro.config.ts",
];

/** @param {string} root the checkout @returns {number} */
export const productionLines = (root) =>
  productionFiles(root).reduce((sum, file) => sum + readFileSync(join(root, file), "utf8").split("\n").length - 1, 0);
