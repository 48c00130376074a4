#!/usr/bin/env node
/** Prints the size of a server bundle (every .mjs under a folder, source maps and node_modules excluded), raw and gzip. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export function bundleSize(dir) {
  const files = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        if (name !== "node_modules") walk(path);
      } else if (name.endsWith(".mjs")) files.push(path);
    }
  };
  walk(dir);
  const contents = Buffer.concat(files.map((file) => readFileSync(file)));
  return { files: files.length, raw: contents.length, gzip: gzipSync(contents, { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? ".output/server";
  const { files, raw, gzip } = bundleSize(dir);
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`[bundle] ${dir}: ${files} files, ${kb(raw)} raw, ${kb(gzip)} gzip`);
}
