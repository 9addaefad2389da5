/** Shared setup for API tests: one prepared state per test file. */
import { Compiler, Context, PassProgram, Source, Workspace } from "../../src/index.js";
import { createAmdgpuProfile, createAmdgpuTargetEnvironment } from "../../src/targets/amdgpu/index.js";

export const SEED_KERNEL = `// The workload determines launch geometry without becoming a device argument.
kernel.def export("workload_grid") @workload_grid(%element_count: index) {
  %unit = index.constant 1 : index
  %workgroup_size = index.constant 64 : index
  %rounding = index.constant 63 : index
  %rounded_count = index.add %element_count, %rounding : index
  %workgroup_count = index.div %rounded_count, %workgroup_size : index
  kernel.launch.config workgroups(%workgroup_count, %unit, %unit) workgroup_size(%workgroup_size, %unit, %unit) : index
} launch() {
  kernel.return
}
`;

export function prepared(target = "gfx1100") {
  const env = createAmdgpuTargetEnvironment();
  const context = Context.create({ targetEnvironments: [env] });
  const profile = createAmdgpuProfile(env, { identifier: `test-${target}`, identity: { target } });
  const compiler = Compiler.create(context);
  const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low", verifyEachPass: true }).value!;
  const workspace = new Workspace(context);
  const parse = (text: string, name = "k.loom") => workspace.parseModule(Source.fromText(name, text));
  return { env, context, profile, compiler, pipeline, workspace, parse };
}
