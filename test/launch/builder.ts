/** A tiny IR builder for launch-config tests (config regions built by hand, no parser). */
import { Op, Region, type Predicate, type Prop, type Value } from "../../src/ir/core.js";
import { prim, type PrimName } from "../../src/ir/types.js";
import type { LaunchFunctionSource } from "../../src/launch/source.js";

export const DEFAULT_LIMITS = {
  maxWorkgroupCount: [2147483647, 65535, 65535] as [number, number, number],
  maxWorkgroupSize: [1024, 1024, 1024] as [number, number, number],
  maxFlatWorkgroupSize: 1024,
};

export class RegionBuilder {
  #n = 0;
  constructor(readonly region: Region) {}

  arg(name: string, type: PrimName): Value {
    return this.region.addArg(name, prim(type));
  }

  /** Appends `name` with operands, result types, props and nested regions (built by callbacks). */
  op(name: string, operands: readonly Value[], results: readonly PrimName[] = [], props: Record<string, Prop> = {}, regions: readonly ((b: RegionBuilder, r: Region) => void)[] = []): Value[] {
    const op = new Op(name);
    op.operands = [...operands];
    op.props = { ...props };
    op.parent = this.region;
    for (const build of regions) {
      const r = op.addRegion();
      build(new RegionBuilder(r), r);
    }
    const vs = results.map((t) => op.addResult(`v${this.#n++}`, prim(t)));
    this.region.ops.push(op);
    return vs;
  }

  one(name: string, operands: readonly Value[], result: PrimName, props: Record<string, Prop> = {}): Value {
    return this.op(name, operands, [result], props)[0]!;
  }

  index(v: bigint | number, type: "index" | "offset" = "index"): Value {
    return this.one("index.constant", [], type, { value: { kind: "int", value: BigInt(v) } });
  }
  int(v: bigint | number, type: PrimName): Value {
    return this.one("scalar.constant", [], type, { value: { kind: "int", value: BigInt(v) } });
  }
  float(v: number, type: PrimName): Value {
    return this.one("scalar.constant", [], type, { value: { kind: "float", value: v } });
  }
  launch(count: readonly Value[], size: readonly Value[], cluster?: readonly Value[]): void {
    this.op("kernel.launch.config", [...count, ...size, ...(cluster ?? [])], [], { cluster: cluster !== undefined });
  }
}

export function source(exportName: string, build: (b: RegionBuilder) => void, options: Partial<Omit<LaunchFunctionSource, "region" | "exportName">> = {}): LaunchFunctionSource {
  const region = new Region(null);
  build(new RegionBuilder(region));
  return {
    exportName,
    region,
    workloadWhere: options.workloadWhere ?? [],
    subgroupSize: options.subgroupSize ?? 32,
    workgroupStorageBytes: options.workgroupStorageBytes ?? 0,
    limits: options.limits ?? DEFAULT_LIMITS,
  };
}

export function pred(kind: string, ...args: (Value | bigint | number)[]): Predicate {
  return { kind, args: args.map((a) => (typeof a === "number" ? BigInt(a) : a)) };
}

/** language.md §10 (a): ⌈count/64⌉ workgroups of 64. */
export function workloadGrid(exportName = "workload_grid", options: Parameters<typeof source>[2] = {}): LaunchFunctionSource {
  return source(exportName, (b) => {
    const count = b.arg("count", "index");
    const c1 = b.index(1);
    const lanes = b.index(64);
    const lanesMinusOne = b.index(63);
    const padded = b.one("index.add", [count, lanesMinusOne], "index");
    const groups = b.one("index.div", [padded, lanes], "index");
    b.launch([groups, c1, c1], [lanes, c1, c1]);
  }, options);
}
