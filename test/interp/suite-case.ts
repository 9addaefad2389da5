/**
 * Running the canonical suite (examples/kernels/suite.ts) on the interpreter: load a suite
 * kernel, run one of its cases through harness.dispatch (prepared and parsed kernel must
 * agree), and compare the outputs with the case's plain-JS reference by the suite's rules.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compareOutput, describeCheck, type ExpectedOutput, type HostArray, type KernelCase, type SuiteKernel } from "../../src/harness/index.js";
import type { ArgValue } from "../../src/interp/index.js";
import { fromRoot } from "../util/paths.js";
import { dispatch, loadKernelText, type LoadedKernel } from "./harness.js";

/** The suite kernel's file from examples/kernels, compiled for the reference environment. */
export function loadSuiteKernel(k: SuiteKernel, options: { subgroupSize?: number } = {}): LoadedKernel {
  return loadKernelText(k.file, readFileSync(fromRoot("examples", "kernels", k.file), "utf8"), { ...options, symbol: k.symbol });
}

function sameKind(like: HostArray, bytes: Uint8Array): HostArray {
  const buf = bytes.buffer;
  return like instanceof Float32Array ? new Float32Array(buf) : like instanceof Int32Array ? new Int32Array(buf) : new Uint32Array(buf);
}

/**
 * Dispatches `c` on `k` (buffers copied, so the case stays reusable) and returns every
 * buffer's final contents by argument name. `initial` replaces named buffers' starting data.
 */
export function runSuiteCase(k: LoadedKernel, c: KernelCase, initial: Readonly<Record<string, HostArray>> = {}): Record<string, HostArray> {
  assert.deepEqual(k.prepared.argumentNames, c.args.map((a) => a.name), "the case's arguments are the kernel's, in order");
  const bytes = new Map<string, Uint8Array>();
  const args: ArgValue[] = c.args.map((a) => {
    if (a.kind === "scalar") return a.value;
    const data = initial[a.name] ?? a.data;
    const b = new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    bytes.set(a.name, b);
    return b;
  });
  dispatch(k, c.workload.map((w) => BigInt(w)), args);
  const out: Record<string, HostArray> = {};
  for (const a of c.args) if (a.kind === "buffer") out[a.name] = sameKind(a.data, bytes.get(a.name)!);
  return out;
}

/** Asserts every reference output of `c` holds in `got`; `bitExact` tightens float rules to bitwise. */
export function assertMatchesReference(label: string, got: Readonly<Record<string, HostArray>>, want: Readonly<Record<string, ExpectedOutput>>, bitExact = false): void {
  for (const [name, expected] of Object.entries(want)) {
    const rule: ExpectedOutput = bitExact ? { ...expected, compare: { kind: "exact" } } : expected;
    const actual = got[name];
    assert.ok(actual, `${label}: no buffer argument named ${name}`);
    const check = compareOutput(name, actual, rule);
    assert.equal(check.mismatches, 0, `${label}: ${name}: ${describeCheck(check)}`);
  }
}
