/**
 * The simulator earns trust on code it did not produce: the suite kernels written in OpenCL C
 * (test/sim/opencl/) and built by clang-19 for gfx1100 (RDNA3, wave32 and wave64) and gfx942
 * (CDNA3, wave64) run in the simulator at every test size of the suite manifest (0, 1, primes,
 * non-multiples of the workgroup size) and must reproduce the suite's CPU references.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { KERNEL_SUITE } from "../../examples/kernels/suite.js";
import { SimRuntime } from "../../src/runtime/sim/index.js";
import { buildOpencl, OPENCL_KERNELS, REFERENCE_BUILDS, requireOpenclTools } from "./opencl.js";
import { runSimCase, suiteLaunch } from "./suite-cases.js";

test("every suite kernel has an OpenCL C equivalent", () => {
  assert.deepEqual([...OPENCL_KERNELS].sort(), KERNEL_SUITE.map((k) => k.symbol).sort());
});

for (const build of REFERENCE_BUILDS) {
  for (const kernel of KERNEL_SUITE) {
    test(`LLVM-built ${kernel.symbol} (${build.name}) reproduces the suite reference in the simulator at every test size`, (t) => {
      if (!requireOpenclTools(t)) return;
      const rt = new SimRuntime();
      const module = rt.loadCodeObject(buildOpencl(kernel.symbol, build.mcpu, build.flags).bytes);
      const launch = suiteLaunch(kernel, build.mcpu, build.flags.length > 0 ? 64 : undefined);
      const failures: string[] = [];
      let instructions = 0;
      let ms = 0;
      for (const shape of kernel.shapes.test) {
        const r = runSimCase(rt, module, kernel, launch, shape);
        instructions += r.instructions;
        ms += r.milliseconds;
        for (const f of r.failures) failures.push(`${r.label}: ${f}`);
      }
      t.diagnostic(`${kernel.symbol} ${build.name}: ${kernel.shapes.test.length} sizes, ${instructions} wave instructions in ${ms} ms`);
      assert.deepEqual(failures, []);
    });
  }
}
