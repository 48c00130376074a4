/**
 * Lines of production code in a checkout: every `.ts` and `.mjs` file under `server/`, `routes/` and `utils/`, and
 * `nitro.config.ts`; not the development programs (any `dev/` folder: the terminal client, a feature's, the build's), not
 * the tests. Counted on the formatted tree (`npm run format`, print width 120), code only: a blank line or a line that is
 * all comment does not count, so a budget never pushes anyone to cut documentation.
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

/**
 * The lines of `text` that hold code: not blank, not inside a block comment, not a `//` comment alone. A line with code
 * before a comment counts; so does code after a block comment closes on its line.
 * @param {string} text
 * @returns {number}
 */
export function codeLines(text) {
  let inBlock = false;
  let count = 0;
  for (const line of text.split("\n")) {
    let rest = line.trim();
    if (inBlock) {
      const end = rest.indexOf("*/");
      if (end === -1) continue;
      inBlock = false;
      rest = rest.slice(end + 2).trim();
    }
    while (rest.startsWith("/*")) {
      const end = rest.indexOf("*/", 2);
      if (end === -1) {
        inBlock = true;
        rest = "";
        break;
      }
      rest = rest.slice(end + 2).trim();
    }
    if (rest !== "" && !rest.startsWith("//")) count++;
  }
  return count;
}

/** @param {string} root the checkout @returns {number} */
export const productionLines = (root) =>
  productionFiles(root).reduce((sum, file) => sum + codeLines(readFileSync(join(root, file), "utf8")), 0);
