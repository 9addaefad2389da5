/** Instruction-set families: the unit at which AMDGPU encodings change. */
export type IsaFamily = "gfx9" | "gfx10" | "gfx11" | "gfx12";
