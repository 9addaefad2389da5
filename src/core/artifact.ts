/** What a compile produces: artifact kinds and the executable formats (api.md §1). */
export interface Artifact {
  /** "interface": the kernel-interface record of the executable before it (docs/abi.md). */
  readonly kind: "executable" | "interface" | "launch-config" | "text" | "report" | "module";
  readonly format: string;
  readonly identifier: string;
  /** Owned by the Result; copy it to keep it past the Result. */
  readonly contents: Uint8Array;
}

export const ARTIFACT_FORMAT = {
  LOOM_BYTECODE: "loombc",
  AMDGPU_HSACO: "amdgpu-hsaco",
  SPIRV: "spirv",
  PTX: "ptx",
  WGSL: "wgsl",
  LOOM_TEXT: "loom",
} as const;
