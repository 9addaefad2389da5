/**
 * Suite kernels the AMDGPU back end refuses today, each with the op its TARGET/001 names
 * (docs/amdgpu.md lists what is selected). The codegen and simulator tests hold every other
 * suite kernel to LLVM's tools and the references, and these to exactly that diagnostic.
 */
export const NOT_YET_SELECTED: Readonly<Record<string, string>> = {
};
