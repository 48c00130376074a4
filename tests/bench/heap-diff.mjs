#!/usr/bin/env node
/**
 * What grew between two V8 heap snapshots of one process: object counts and sizes by kind and constructor, the largest
 * growths first. For a soak that fails on its heap (see the README's soak section for taking the snapshots):
 *
 *   node tests/bench/heap-diff.mjs earlier.heapsnapshot later.heapsnapshot [rows]
 *
 * A string's "constructor" is its text, with every run of 16 or more id-like characters shown as "…" (so the keys of a store
 * group as `"mcp:fixtures:counter:…"`); joined strings, numbers, code and V8's hidden objects are counted by kind alone.
 */
import { readFileSync } from "node:fs";

const BY_KIND_ALONE = new Set(["concatenated string", "number", "hidden", "code"]);
const TEXT = new Set(["string", "sliced string"]);
const ID_LIKE = /[A-Za-z0-9_-]{16,}/g;

function nameOf(kind, name) {
  if (BY_KIND_ALONE.has(kind)) return "";
  if (TEXT.has(kind)) return JSON.stringify(name.replace(ID_LIKE, "…").slice(0, 40));
  return name.slice(0, 60);
}

/** Count and self size of every (kind, constructor) in a snapshot file. */
function tally(path) {
  const { snapshot, nodes, strings } = JSON.parse(readFileSync(path, "utf8"));
  const fields = snapshot.meta.node_fields;
  const kinds = snapshot.meta.node_types[0];
  const [kindAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((field) => fields.indexOf(field));
  const groups = new Map();
  for (let node = 0; node < nodes.length; node += fields.length) {
    const kind = kinds[nodes[node + kindAt]];
    const name = nameOf(kind, strings[nodes[node + nameAt]]);
    const group = groups.get(`${kind}\t${name}`) ?? { count: 0, bytes: 0 };
    group.count += 1;
    group.bytes += nodes[node + sizeAt];
    groups.set(`${kind}\t${name}`, group);
  }
  return groups;
}

const [earlierPath, laterPath, rowsArgument] = process.argv.slice(2);
if (!earlierPath || !laterPath) {
  console.error("usage: node tests/bench/heap-diff.mjs earlier.heapsnapshot later.heapsnapshot [rows]");
  process.exit(2);
}
const [earlier, later] = [tally(earlierPath), tally(laterPath)];
const none = { count: 0, bytes: 0 };
const rows = [...new Set([...earlier.keys(), ...later.keys()])].map((key) => {
  const [before, after] = [earlier.get(key) ?? none, later.get(key) ?? none];
  const [kind, name] = key.split("\t");
  return {
    kind,
    name,
    count: after.count,
    bytes: after.bytes,
    grown: after.bytes - before.bytes,
    more: after.count - before.count,
  };
});
const total = (groups) => [...groups.values()].reduce((sum, group) => sum + group.bytes, 0);
const kb = (bytes) => (bytes / 1024).toFixed(0);
console.log(`self size of every object: ${kb(total(earlier))} KB, then ${kb(total(later))} KB\n`);
console.log("| grown (KB) | more objects | now (objects, KB) | kind | constructor |");
console.log("|---|---|---|---|---|");
for (const row of rows.sort((a, b) => b.grown - a.grown).slice(0, Number(rowsArgument ?? 20)))
  console.log(`| ${kb(row.grown)} | ${row.more} | ${row.count}, ${kb(row.bytes)} | ${row.kind} | ${row.name} |`);
