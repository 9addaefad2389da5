/**
 * Runs suite cases (examples/kernels/suite.ts) on the simulator: buffers allocated and
 * uploaded, scalars passed by value, the launch's workgroup count as the .loom file's launch
 * config computes it from the workload, outputs downloaded and compared with the reference.
 */
import type { CaseShape, HostArray, KernelCase, SuiteKernel } from "../../src/harness/index.js";
import { compareOutput, describeCheck } from "../../src/harness/index.js";
import { SimRuntime, type ArgValue, type SimBuffer, type SimModule } from "../../src/runtime/sim/index.js";

const ceilDiv = (a: number, b: number): number => Math.ceil(a / b);
type Dims = readonly [number, number, number];

/** Workgroup count and size per suite kernel, as its kernel.launch.config computes them. */
export const SUITE_LAUNCH: Record<string, (workload: readonly number[]) => { workgroups: Dims; workgroupSize: Dims }> = {
  saxpy: ([n = 0]) => ({ workgroups: [ceilDiv(n, 128), 1, 1], workgroupSize: [128, 1, 1] }),
  vector_add_tail: ([n = 0]) => ({ workgroups: [ceilDiv(n, 256), 1, 1], workgroupSize: [64, 1, 1] }),
  block_sum: ([n = 0]) => ({ workgroups: [ceilDiv(n, 256), 1, 1], workgroupSize: [256, 1, 1] }),
  reduce_sum: ([n = 0]) => ({ workgroups: [Math.min(ceilDiv(n, 256), 1024), 1, 1], workgroupSize: [256, 1, 1] }),
  matmul16: ([m = 0, n = 0]) => ({ workgroups: [ceilDiv(n, 16), ceilDiv(m, 16), 1], workgroupSize: [16, 16, 1] }),
  transpose_tile: ([rows = 0, cols = 0]) => ({ workgroups: [ceilDiv(cols, 16), ceilDiv(rows, 16), 1], workgroupSize: [16, 16, 1] }),
  row_softmax: ([rows = 0]) => ({ workgroups: [rows, 1, 1], workgroupSize: [64, 1, 1] }),
  histogram: ([n = 0]) => ({ workgroups: [ceilDiv(n, 256), 1, 1], workgroupSize: [256, 1, 1] }),
  prefix_sum: () => ({ workgroups: [1, 1, 1], workgroupSize: [256, 1, 1] }),
  saxpy4: ([n = 0]) => ({ workgroups: [ceilDiv(n, 1024), 1, 1], workgroupSize: [256, 1, 1] }),
  reduce_sum4: ([n = 0]) => ({ workgroups: [Math.min(ceilDiv(n, 2048), 2048), 1, 1], workgroupSize: [256, 1, 1] }),
  matmul_tiled: ([m = 0, n = 0]) => ({ workgroups: [ceilDiv(n, 128), ceilDiv(m, 128), 1], workgroupSize: [16, 16, 1] }),
  transpose32: ([rows = 0, cols = 0]) => ({ workgroups: [ceilDiv(cols, 32), ceilDiv(rows, 32), 1], workgroupSize: [32, 8, 1] }),
  row_softmax4: ([rows = 0]) => ({ workgroups: [ceilDiv(rows, 4), 1, 1], workgroupSize: [256, 1, 1] }),
};

export interface SimCaseResult {
  readonly label: string;
  readonly failures: readonly string[];
  readonly instructions: number;
  readonly milliseconds: number;
}

function sameKind(data: HostArray, bytes: Uint8Array): HostArray {
  const copy = bytes.slice().buffer;
  return data instanceof Float32Array ? new Float32Array(copy) : data instanceof Int32Array ? new Int32Array(copy) : new Uint32Array(copy);
}

/** Runs one case of `kernel` in `module`; failures name output, mismatch count and first difference. */
export function runSimCase(rt: SimRuntime, module: SimModule, kernel: SuiteKernel, shape: CaseShape, seed = 1): SimCaseResult {
  const c: KernelCase = kernel.build(shape, seed);
  const buffers = new Map<string, { buffer: SimBuffer; data: HostArray }>();
  const values: ArgValue[] = c.args.map((a) => {
    if (a.kind === "scalar") return a.value;
    const buffer = rt.allocate(a.data.byteLength, a.name);
    rt.upload(buffer, a.data);
    buffers.set(a.name, { buffer, data: a.data });
    return buffer;
  });
  const launch = SUITE_LAUNCH[kernel.symbol]!(c.workload.map(Number));
  const stats = rt.launch(module.kernel(kernel.symbol), launch.workgroups, values, { workgroupSize: launch.workgroupSize });
  const failures: string[] = [];
  for (const [name, want] of Object.entries(c.reference())) {
    const b = buffers.get(name)!;
    const check = compareOutput(name, sameKind(b.data, rt.download(b.buffer)), want);
    if (check.mismatches > 0) failures.push(`${name}: ${describeCheck(check)}`);
  }
  for (const b of buffers.values()) rt.free(b.buffer);
  return { label: c.label, failures, instructions: stats.instructions, milliseconds: stats.milliseconds };
}
