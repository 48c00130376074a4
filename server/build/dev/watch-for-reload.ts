/**
 * `nitropack dev` rebuilds when a file changes that Nitro does not watch itself: a definition added or removed, or a file a
 * feature builds in. A build does nothing here.
 */
import { existsSync, watch } from "node:fs";
import type { Nitro } from "nitropack";

/** Rebuilds in `nitropack dev` when something in `dir` changes (a file added or removed; with `recursive`, any change). */
export function watchForReload(nitro: Nitro, dirs: readonly string[], recursive: boolean): void {
  if (!nitro.options.dev) return;
  const watchers = dirs
    .filter((dir) => existsSync(dir))
    .map((dir) =>
      watch(dir, { recursive }, (event) => {
        if (event === "rename" || recursive) void nitro.hooks.callHook("rollup:reload");
      }),
    );
  nitro.hooks.hook("close", () => {
    for (const watcher of watchers) watcher.close();
  });
}
