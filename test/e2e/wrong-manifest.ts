/**
 * A suite manifest with a deliberately wrong saxpy reference (alpha off by 1/4), for the
 * `loom run --manifest` test: the device is right, so the command must report FAIL, exit 1.
 */
import { KERNEL_SUITE as RIGHT } from "../../examples/kernels/suite.js";
import type { KernelCase, SuiteKernel } from "../../src/harness/index.js";

function wrongSaxpy(k: SuiteKernel): SuiteKernel {
  return {
    ...k,
    build(shape, seed): KernelCase {
      const c = k.build(shape, seed);
      const x = c.args.find((a) => a.name === "x");
      const y = c.args.find((a) => a.name === "y");
      if (x?.kind !== "buffer" || y?.kind !== "buffer") throw new Error("saxpy case without x and y");
      return {
        ...c,
        reference: () => ({ y: { values: y.data.map((v, i) => Math.fround(2.25 * x.data[i]! + v)), compare: { kind: "float", epsilons: 2 } } }),
      };
    },
  };
}

export const KERNEL_SUITE: readonly SuiteKernel[] = RIGHT.map((k) => (k.symbol === "saxpy" ? wrongSaxpy(k) : k));
