/**
 * Suite kernels the AMDGPU back end refuses today, each with the op its TARGET/001 names
 * (docs/amdgpu.md lists what is selected). The codegen and simulator tests hold every other
 * suite kernel to LLVM's tools and the references, and these to exactly that diagnostic.
 */
export const NOT_YET_SELECTED: Readonly<Record<string, string>> = {
  // Carried vector accumulators (the 8×8 register tile) in scf.for.
  matmul_tiled: "'scf.for' yielding buffers, views or vectors",
  // kernel.subgroup.id / count, and subgroup reductions of f32.
  row_softmax4: "'kernel.subgroup.id'",
};
