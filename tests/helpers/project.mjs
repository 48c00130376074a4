/**
 * What this checkout is: its package's name and version (a fork renames them; the server reports them), and which optional
 * features it still has (a fork may delete any folder of `server/features/`: tests of shared behaviour expect what is there).
 */
import { existsSync, readFileSync } from "node:fs";

const ROOT = new URL("../../", import.meta.url);

/** @type {{ name: string, version: string }} */
export const PACKAGE = JSON.parse(readFileSync(new URL("package.json", ROOT), "utf8"));

/** @param {string} name a folder of `server/features/` */
export const hasFeature = (name) => existsSync(new URL(`server/features/${name}`, ROOT));
