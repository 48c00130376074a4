/** The benchmark's own packages (tests/bench/package.json: autocannon, the peers, esbuild), installed on first use. */
import { fileURLToPath } from "node:url";
import { ensureOwnDependencies } from "../helpers/own-dependencies.mjs";

export const ensureBenchDependencies = () => ensureOwnDependencies(fileURLToPath(new URL(".", import.meta.url)));
