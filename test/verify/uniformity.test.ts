/** Uniformity analysis and STRUCTURE/038 (barriers and collectives under non-uniform control). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { expectClean, expectCodes, kernel, verifyText } from "./helpers.js";

const barrier = "kernel.barrier<workgroup> scope(workgroup) ordering(acq_rel)";

test("uniformity: barriers under uniform control are fine", () => {
  expectClean(kernel(`  ${barrier}`));
  // Conditions from workgroup ids, device args and constants are uniform.
  expectClean(kernel(`  %g = kernel.workgroup.id<x> : index\n  %p = index.cmp slt, %g, %n : index\n  scf.if %p {\n    ${barrier}\n  }`, "%n: index"));
  // Loops with uniform bounds (the block_sum example shape).
  expectClean(kernel(`  %c0 = index.constant 0 : index\n  %c8 = index.constant 8 : index\n  scf.for %l = [%c0 to %c8 step %c1] {\n    ${barrier}\n  }`));
});

test("uniformity: barriers under lane-dependent control (STRUCTURE/038)", () => {
  const lane = "  %c0 = index.constant 0 : index\n  %lane = kernel.workitem.id<x> : index\n";
  expectCodes(kernel(`${lane}  %p = index.cmp eq, %lane, %c0 : index\n  scf.if %p {\n    ${barrier}\n  }`), ["STRUCTURE/038"]);
  // Through arithmetic and a select.
  expectCodes(kernel(`${lane}  %x = index.add %lane, %c1 : index\n  %y = index.max %x, %c0 : index\n  %p = index.cmp eq, %y, %c0 : index\n  %t = scalar.constant true : i1\n  %q = scf.select %p, %t, %t : i1\n  scf.if %q {\n    ${barrier}\n  }`), ["STRUCTURE/038"]);
  // A loop whose trip count varies per lane.
  expectCodes(kernel(`${lane}  scf.for %l = [%c0 to %lane step %c1] {\n    ${barrier}\n  }`), ["STRUCTURE/038"]);
  // Dispatch ids vary too.
  expectCodes(kernel(`  %i = kernel.workitem.dispatch.id<x> : index\n  %p = index.cmp ult, %i, %n : index\n  scf.if %p {\n    ${barrier}\n  }`, "%n: index"), ["STRUCTURE/038"]);
});

test("uniformity: loop-carried values reach a fixpoint", () => {
  // %acc starts uniform but becomes lane-dependent through the yield: the branch on it is not uniform.
  const text = kernel(`  %c0 = index.constant 0 : index
  %c4 = index.constant 4 : index
  %lane = kernel.workitem.id<x> : index
  %r = scf.for %l = [%c0 to %c4 step %c1](%acc = %c0 : index) -> (index) {
    %p = index.cmp eq, %acc, %c0 : index
    scf.if %p {
      ${barrier}
    }
    %next = index.add %acc, %lane : index
    scf.yield %next : index
  }`);
  expectCodes(text, ["STRUCTURE/038"]);
});

test("uniformity: values leaving a lane-dependent branch are lane-dependent", () => {
  const v = verifyText(kernel(`  %c0 = index.constant 0 : index
  %lane = kernel.workitem.id<x> : index
  %p = index.cmp eq, %lane, %c0 : index
  %r = scf.if %p -> (index) {
    scf.yield %c0 : index
  } else {
    scf.yield %c1 : index
  }
  %g = kernel.workgroup.id<x> : index`));
  const body = v.module.ops[0]!.regions[1]!;
  const byName = new Map(body.ops.flatMap((op) => op.results).map((r) => [r.name, r]));
  assert.equal(v.info.uniformity.of(byName.get("r")!), "varying");
  assert.equal(v.info.uniformity.of(byName.get("g")!), "uniform");
  assert.equal(v.info.uniformity.of(byName.get("c0")!), "uniform");
});

test("uniformity: subgroup-scope collectives may depend on the subgroup id", () => {
  const sg = "  %c0 = index.constant 0 : index\n  %s = kernel.subgroup.id : index\n  %p = index.cmp eq, %s, %c0 : index\n  %f = scalar.constant 1.0 : f32\n";
  expectClean(kernel(`${sg}  scf.if %p {\n    %r = kernel.subgroup.reduce<addf> %f : f32\n  }`));
  expectClean(kernel(`${sg}  scf.if %p {\n    kernel.barrier<workgroup> scope(subgroup) ordering(acq_rel)\n  }`));
  expectCodes(kernel(`${sg}  scf.if %p {\n    ${barrier}\n  }`), ["STRUCTURE/038"]);
  expectCodes(kernel(`${sg}  scf.if %p {\n    %r = kernel.workgroup.reduce<addf> %f : f32\n  }`), ["STRUCTURE/038"]);
  const lane = "  %c0 = index.constant 0 : index\n  %l = kernel.subgroup.lane.id : index\n  %p = index.cmp eq, %l, %c0 : index\n  %f = scalar.constant 1.0 : f32\n";
  expectCodes(kernel(`${lane}  scf.if %p {\n    %r = kernel.subgroup.reduce<addf> %f : f32\n  }`), ["STRUCTURE/038"]);
});

test("uniformity: a call to a function containing a barrier counts as a barrier", () => {
  const fn = `func.def @sync() {\n  ${barrier}\n  func.return\n}\n\n`;
  expectClean(fn + kernel("  func.call @sync() : () -> ()"));
  expectCodes(fn + kernel("  %c0 = index.constant 0 : index\n  %lane = kernel.workitem.id<x> : index\n  %p = index.cmp eq, %lane, %c0 : index\n  scf.if %p {\n    func.call @sync() : () -> ()\n  }"), ["STRUCTURE/038"]);
});
