/**
 * A Rollup plugin for the builds: hookable, which runs Nitro's hooks, tags every call of a hook for DevTools' async stack
 * traces with `console.createTask`. Nitro calls three hooks a request, and on Node each task is inspector bookkeeping (a
 * record in a tree, and a weak handle the garbage collector must clear) that costs about a tenth of a request's CPU, for a
 * debugger a deployed server does not have. Here the bundled hookable (or any module that tests for it in those words) finds
 * no `console.createTask` and calls each hook plainly. `nitropack dev` leaves hookable unbundled, so a debugging session keeps
 * the tags.
 *
 * The change stays within a line, so hookable's source map keeps its lines (`map: null`). Plain JavaScript: the benchmark's
 * floors (`tests/helpers/builds.mjs`) are built with it too, from plain Node. A hookable that words its test otherwise would
 * be left as it is: `tests/targets/node.test.ts` checks the build for the call.
 */
const TAGGED = 'typeof console.createTask !== "undefined"';
/** @type {import("rollup").TransformHook} */
const transform = (code) => (code.includes(TAGGED) ? { code: code.replace(TAGGED, "false"), map: null } : null);

/** @type {import("rollup").Plugin} */
export const untaggedHooks = { name: "untagged-hooks", transform };
