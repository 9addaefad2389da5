/**
 * The per-op fast rules (src/dialects/eval/fast.ts) that both fast evaluators derive from:
 * every term of every rule, over every well-typed signature, flag set and predicate, must be
 * spliceable into generated code and mean the same there — rebuilt from its parameter list and
 * body alone in a fresh global scope, it computes what the function computes (a term that
 * named a module variable would throw or differ). And launch/ops.ts holds only the numbering:
 * the opcodes cover exactly the ops with an evaluation signature, all allowed in a
 * launch-config region.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EVAL_SIGNATURES } from "../../src/dialects/eval/signatures.js";
import { fastArgument, fastPredicate, fastRule, predicateRead, type FastTerm } from "../../src/dialects/eval/fast.js";
import { PREDICATE_ARITY } from "../../src/dialects/scalar/semantics.js";
import type { LType } from "../../src/dialects/eval/types.js";
import { lookupOp, opTable } from "../../src/dialects/table.js";
import { OP_BY_NAME, OP_LIST } from "../../src/launch/ops.js";
import { spliceableArrow } from "../../src/launch/splice.js";

const TYPES: readonly LType[] = ["index", "offset", "i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"];
const FLAG_SETS = [0, 1, 2, 3, 8, 16, 24, 0x1fc];
const SAMPLES = [0, -0, 1, -1, 2, 7, 31, 32, 63, 64, 255, 256, 65535, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, -(2 ** 31), 2 ** 53 - 1, -(2 ** 53 - 1), 0.5, -2.5, 1e300, NaN, Infinity, -Infinity];

/** Every bound rule term, with the arity of its leading arguments (operands, or 1 for a check). */
function* allTerms(): Generator<{ what: string; term: FastTerm; lead: number }> {
  for (const t of TYPES) {
    const arg = fastArgument(t);
    for (const g of arg.guards) yield { what: `argument ${t} guard`, term: g, lead: 1 };
    yield { what: `argument ${t} value`, term: arg.value, lead: 1 };
    yield { what: `predicate read of ${t}`, term: predicateRead(t), lead: 1 };
  }
  for (const [kind, arity] of Object.entries(PREDICATE_ARITY)) {
    const holds = fastPredicate(kind);
    assert.ok(holds, `no fast rule for predicate ${kind}`);
    yield { what: `predicate ${kind}`, term: holds, lead: arity };
  }
  for (const info of OP_LIST) {
    if (info.shape !== "simple") continue;
    for (const t0 of TYPES) {
      const operands = info.name === "index.scale" ? (["index", "offset"] as LType[]) : Array<LType>(info.arity).fill(t0);
      for (const t of TYPES) {
        if (info.check(operands, t) !== undefined) continue;
        for (const flags of FLAG_SETS) {
          if ((flags & ~info.flags) !== 0) continue;
          for (const p of info.predicates ?? [undefined]) {
            const rule = fastRule(info.name, t, operands[0]!, flags, p);
            if (!rule) continue;
            const what = `${info.name} ${operands.join(",")} → ${t} flags ${flags} ${p ?? ""}`;
            for (const g of rule.guards) yield { what: `${what} guard`, term: g, lead: info.arity };
            yield { what: `${what} value`, term: rule.value, lead: info.arity };
            if (rule.check) yield { what: `${what} check`, term: rule.check, lead: 1 };
          }
        }
      }
    }
  }
}

test("every fast-rule term splices, and means the same spliced", () => {
  let terms = 0;
  for (const { what, term, lead } of allTerms()) {
    const arrow = spliceableArrow(term.fn);
    assert.ok(arrow, `${what}: ${term.fn.toString()} is not an expression arrow`);
    const rebuilt = new Function(...arrow.params, `"use strict"; return (${arrow.body});`) as (...a: unknown[]) => unknown;
    for (let i = 0; i < SAMPLES.length; i++) {
      const args = [...Array.from({ length: lead }, (_, k) => SAMPLES[(i + 7 * k) % SAMPLES.length]), ...term.constants];
      // Samples outside a type's representation may throw (BigInt(0.5)): then both must, alike.
      const attempt = (f: (...a: unknown[]) => unknown): unknown => {
        try {
          return f(...args);
        } catch (e) {
          return { threw: String(e) };
        }
      };
      const got = attempt(rebuilt), want = attempt(term.fn);
      // Helpers answer UB with a fresh `Undefined` object: equal as values, not as identities.
      const same = Object.is(got, want) || (typeof got === "object" && got !== null && typeof want === "object" && want !== null && got.constructor === want.constructor && JSON.stringify(got) === JSON.stringify(want));
      assert.ok(same, `${what}: ${term.fn.toString()} on ${args.slice(0, lead).join(", ")}`);
    }
    terms++;
  }
  assert.ok(terms > 1000, `only ${terms} terms`);
});

test("the opcodes are exactly the ops with an evaluation signature or a structural shape, all allowed in launch-config regions", () => {
  assert.equal(OP_BY_NAME.size, OP_LIST.length, "an op has two opcodes");
  OP_LIST.forEach((o, i) => assert.equal(o.opcode, i));
  for (const name of EVAL_SIGNATURES.keys()) assert.ok(OP_BY_NAME.has(name), `${name} has a signature but no opcode`);
  for (const o of OP_LIST) {
    assert.ok(lookupOp(o.name)?.placement.includes("C"), `${o.name} is not a C-column op`);
    if (o.shape === "simple" || o.shape === "constant") assert.equal(EVAL_SIGNATURES.get(o.name)?.form, o.shape);
  }
  // C-column ops without an opcode are the ones the compiler resolves before the launch split.
  const resolvedBefore = [...opTable.values()].filter((o) => o.placement.includes("C") && !OP_BY_NAME.has(o.name)).map((o) => o.name);
  assert.deepEqual(resolvedBefore.sort(), ["config.get", "func.call", "target.subgroup.size", "template.apply", "template.call"]);
});
