/**
 * Private memory refusals: `buffer.alloca<private>` is selected where flat scratch is
 * architected (gfx94x, gfx11); on gfx90a, past the per-invocation scratch budget, or under
 * an atomic it is TARGET/001 at the op (the working cases run in selection.test.ts's
 * `private_memory` against the interpreter).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileKernel } from "../../src/harness/index.js";
import { MAX_PRIVATE_SEGMENT_BYTES } from "../../src/targets/amdgpu/lower/scratch.js";
import { env, profile } from "./fixtures.js";

const kernel = (bytes: number, body: string) => `kernel.def export("k") @k(%n: index) {
  %c1 = index.constant 1 : index
  kernel.launch.config workgroups(%c1, %c1, %c1) workgroup_size(%c1, %c1, %c1) : index
} launch(%n: index, %out: buffer) {
  %origin = index.constant 0 : offset
  %c0 = index.constant 0 : index
  %bytes = index.constant ${bytes} : offset
  %p = buffer.alloca<private> align(16) %bytes : buffer
  %pv = buffer.view %p[%origin] : buffer -> view<4xi32>
  %ov = buffer.view %out[%origin] : buffer -> view<4xi32>
  %one = scalar.constant 1 : i32
${body}
  kernel.return
}
`;
const ROUND_TRIP = `  view.store %one, %pv[%c0] : i32, view<4xi32>
  %x = view.load %pv[%c0] : view<4xi32> -> i32
  view.store %x, %ov[%c0] : i32, view<4xi32>`;

function diagnostics(processor: string, text: string): string {
  const outcome = compileKernel({ environment: env, profile: profile(processor), artifactFormat: "amdgpu-hsaco" }, "private.loom", text, "k");
  return outcome.ok ? "" : outcome.diagnostics;
}

test("private memory compiles on gfx1100 and gfx942", () => {
  for (const p of ["gfx1100", "gfx942"]) assert.equal(diagnostics(p, kernel(16, ROUND_TRIP)), "", p);
});

test("private memory on gfx90a is TARGET/001 at the alloca (no architected flat scratch)", () => {
  const d = diagnostics("gfx90a", kernel(16, ROUND_TRIP));
  assert.match(d, /TARGET\/001/);
  assert.match(d, /private\.loom:8:\d+/);
  assert.match(d, /'buffer\.alloca<private>' on gfx90a/);
});

test("more private memory than the scratch budget is TARGET/001", () => {
  const d = diagnostics("gfx1100", kernel(MAX_PRIVATE_SEGMENT_BYTES + 16, ROUND_TRIP));
  assert.match(d, /TARGET\/001/);
  assert.match(d, new RegExp(`${MAX_PRIVATE_SEGMENT_BYTES + 16} bytes of private memory per invocation`));
});

test("an atomic on private memory is TARGET/001 at the atomic", () => {
  const d = diagnostics("gfx942", kernel(16, "  %old = view.atomic.rmw<addi> %one, %pv[%c0] {ordering = relaxed, scope = workgroup} : i32, view<4xi32> -> i32\n  view.store %old, %ov[%c0] : i32, view<4xi32>"));
  assert.match(d, /TARGET\/001/);
  assert.match(d, /private\.loom:12:\d+/);
  assert.match(d, /on private memory/);
});
