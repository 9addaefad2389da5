/**
 * What the compiler hands the launch-config companion, per kernel: the specialized config
 * region and the constants of the compiled version (language.md §6).
 */
import type { Predicate, Region } from "../ir/core.js";

export interface LaunchFunctionSource {
  /** Lookup key: the kernel's export name, without '@'. */
  readonly exportName: string;
  /**
   * The config region: args = workload args (types A ∪ S); ops only from the C column
   * (index.*, pure scalar.* but no math, scf.if/for/select/yield); func calls inlined,
   * config.get and target.subgroup.size already replaced by constants; the last op is
   * kernel.launch.config.
   */
  readonly region: Region;
  /** The `where` after the workload signature: checked at every invocation. */
  readonly workloadWhere: readonly Predicate[];
  /** Fixed subgroup width of the compiled version, 0 if none. */
  readonly subgroupSize: number;
  readonly workgroupStorageBytes: number;
  readonly limits: {
    readonly maxWorkgroupCount: readonly [number, number, number];
    readonly maxWorkgroupSize: readonly [number, number, number];
    readonly maxFlatWorkgroupSize: number;
  };
}

export { encodeLaunchConfig, encodeLaunchFunctions, lowerLaunchFunctions } from "./encode.js";
export type { LaunchFunction } from "./model.js";
