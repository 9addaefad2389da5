/**
 * The jit-task-pool example: many kernel versions compiled in parallel on worker threads.
 *
 * Prepared state (environments, profiles, compiler, pass program) is described once as
 * plain data; every worker builds its own copy at start-up. Jobs go to the first idle
 * worker and artifacts come back as transferred Uint8Arrays, ready for a runtime or cache.
 *
 * Usage: node dist/examples/integration/jit-task-pool/main.js [--workers 2]
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { LaunchConfigProgram } from "loomc";
import { CompilePool, type CompileJob } from "loomc/node";

const text = readFileSync(fileURLToPath(new URL("../../../../examples/integration/jit-kernel/kernel.loom", import.meta.url)), "utf8");

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { workers: { type: "string", default: "2" } } });
  const pool = new CompilePool({
    workers: Number(values.workers),
    targets: {
      gfx1100: { environment: "amdgpu", options: { identifier: "rdna3", identity: { target: "gfx1100" } } },
      gfx942: { environment: "amdgpu", options: { identifier: "cdna3", identity: { target: "gfx942" } } },
      "gfx11-generic": { environment: "amdgpu", options: { identifier: "rdna3-generic", identity: { target: "gfx11-generic" } } },
    },
  });
  try {
    const t0 = performance.now();
    const targets = ["gfx1100", "gfx942", "gfx11-generic"];
    const jobs: CompileJob[] = targets.map((target) => ({
      source: { name: "kernel.loom", text },
      moduleName: `workload_grid_${target}`,
      specializations: [{ functionSymbol: "workload_grid", target }],
      artifacts: { launchConfig: true },
      emit: [{ target, identifier: `workload_grid.${target}.hsaco` }],
    }));
    const outcomes = await Promise.all(jobs.map((j) => pool.compile(j)));
    outcomes.forEach((o, i) => {
      if (!o.ok) throw new Error(o.formatted);
      const program = LaunchConfigProgram.load(o.artifacts.find((a) => a.kind === "launch-config")!);
      const launch = program.invoke(program.lookupFunction("workload_grid"), [1009n]);
      const exe = o.artifacts.find((a) => a.kind === "executable")!;
      console.log(`${targets[i]}: workgroups=${launch.workgroupCount.join("x")} subgroup_size=${launch.subgroupSize} artifact=${exe.identifier} bytes=${exe.contents.byteLength}`);
    });
    console.log(`compiled ${outcomes.length} versions on ${pool.size} workers in ${(performance.now() - t0).toFixed(1)} ms`);
  } finally {
    await pool.close();
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exitCode = 1;
});
