/**
 * `npm run bench`: every benchmark, one JSON document on stdout (medians, percentiles and
 * ratios against an anchor measured in the same run). Progress goes to stderr.
 */
import { cpus } from "node:os";
import { benchCompile } from "./compile.js";
import { benchLaunch } from "./launch.js";
import { benchCache } from "./cache.js";
import { benchPool } from "./pool.js";
import { benchSpirvCompile } from "./spirv-compile.js";
import { benchPtxCompile } from "./ptx-compile.js";
import { benchWgslCompile } from "./wgsl-compile.js";
import { benchAmdgpuCompile } from "./amdgpu-compile.js";
import { amdgpuCodeQuality } from "./amdgpu-quality.js";
import { benchFrontend } from "./frontend.js";

const benches: [string, () => Promise<Record<string, unknown>>][] = [
  ["frontend", benchFrontend],
  ["compile", benchCompile],
  ["launch", benchLaunch],
  ["cache", benchCache],
  ["spirv-compile", benchSpirvCompile],
  ["ptx-compile", benchPtxCompile],
  ["wgsl-compile", benchWgslCompile],
  ["amdgpu-compile", benchAmdgpuCompile],
  ["amdgpu-quality", async () => amdgpuCodeQuality()],
  ["pool", benchPool],
];

const results: Record<string, unknown> = {};
for (const [name, run] of benches) {
  process.stderr.write(`bench ${name} ...\n`);
  results[name] = await run();
}
console.log(
  JSON.stringify(
    { node: process.version, cpu: cpus()[0]?.model ?? "unknown", cores: cpus().length, date: new Date().toISOString(), results },
    (_k, v) => (typeof v === "bigint" ? v.toString() : v),
    2,
  ),
);
