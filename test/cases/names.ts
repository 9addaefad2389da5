/**
 * Inlining copies callee values with their names, so after a pass one function can hold
 * several `%w`s and the printed text would neither read unambiguously nor parse back.
 * Before printing, later duplicates get a `_N` suffix (text order; the first keeps its
 * name). Each region of a top-level op is its own name scope (a kernel's config region
 * and body both have `%n`); nested regions see their ancestors' names.
 */
import type { Op, Region, Value } from "../../src/ir/core.js";

function uniqueIn(root: Region): void {
  // The parser's scoping: a region sees its ancestors' names; siblings may reuse names.
  const scopes: Set<string>[] = [];
  const visible = (name: string) => scopes.some((s) => s.has(name));
  const claim = (v: Value) => {
    let name = v.name;
    for (let k = 1; visible(name); k++) name = `${v.name}_${k}`;
    v.name = name;
    scopes[scopes.length - 1]?.add(name);
  };
  const visit = (region: Region) => {
    scopes.push(new Set());
    region.args.forEach(claim);
    for (const op of region.ops) {
      op.results.forEach(claim);
      op.regions.forEach(visit);
    }
    scopes.pop();
  };
  visit(root);
}

export function uniqueNames(top: Op): void {
  top.regions.forEach(uniqueIn);
}
