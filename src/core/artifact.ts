/** What a compile produces: artifact kinds and the executable formats (api.md §1). */
export interface Artifact {
  /** "interface": the kernel-interface record of the executable before it (docs/abi.md). */
  readonly kind: "executable" | "interface" | "launch-config" | "text" | "report" | "module";
  readonly format: string;
  readonly identifier: string;
  /** Owned by the Result; copy it to keep it past the Result. */
  readonly contents: Uint8Array;
}

/**
 * The format names api.md §1 publishes, so embedders and runtimes can name a format without
 * importing a target package (runtimes import only core). `Artifact.format` is an open string:
 * a new target package declares its format in its `TargetPackage` and environment, and adds a
 * name here only when the public API should publish it.
 */
export const ARTIFACT_FORMAT = {
  LOOM_BYTECODE: "loombc",
  AMDGPU_HSACO: "amdgpu-hsaco",
  SPIRV: "spirv",
  PTX: "ptx",
  WGSL: "wgsl",
  LOOM_TEXT: "loom",
} as const;
