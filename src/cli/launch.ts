/** `loom launch`: evaluate a kernel's launch configuration for workload values, or dump a companion. */
import { Compiler, LaunchConfigError, LaunchConfigProgram, LoomError, PassProgram, compileModule, type LaunchConfigFunction } from "../index.js";
import { loadModule, output, report, requireOne, say, UsageError, type Command } from "./common.js";
import { readInput } from "./io.js";
import { deviceFacts, TARGET_OPTIONS } from "./compile.js";
import { resolveTarget } from "./targets.js";

/** The profile `loom launch` specializes for without --target: PTX lowers every op of the v1 subset. */
export const DEFAULT_LAUNCH_TARGET = "ptx:sm_90";

export const launchCommand: Command = {
  summary: "evaluate a kernel's launch configuration for workload values (or --dump a companion)",
  help: `usage: loom launch FILE --kernel NAME --workload V[,V...] [--target ENV:DEVICE]
       loom launch --dump FILE.launch.loombc

Evaluates the kernel's launch configuration for the workload values and prints
  workgroups=XxYxZ workgroup_size=XxYxZ cluster_size=XxYxZ subgroup_size=N workgroup_storage_bytes=N
The launch depends on the profile (its subgroup width and limits), so the kernel is specialized
for one; the default, ${DEFAULT_LAUNCH_TARGET}, takes every kernel of the language's v1 subset.
  --kernel NAME          kernel symbol (with or without '@')
  --workload V,...       one value per workload argument: integers in the argument type's range
                         (decimal or 0x hex), numbers for float arguments
  --target ENV:DEVICE    the profile to specialize for (default ${DEFAULT_LAUNCH_TARGET}; see 'loom compile --help')
  --feature, --limit, --subgroup-ops   device facts for spirv targets, as in 'loom compile'
  --dump                 print a launch-config companion (.loombc from 'loom compile --launch-config')
                         as text: its functions, arguments, where-predicates, limits and ops`,
  options: {
    ...TARGET_OPTIONS,
    kernel: { type: "string" },
    workload: { type: "string" },
    dump: { type: "boolean" },
  },
  async run(values, positionals) {
    const file = requireOne(positionals);
    if (values.dump === true) return dump(file);
    if (typeof values.kernel !== "string") throw new UsageError("--kernel NAME is required");
    if (typeof values.workload !== "string") throw new UsageError("--workload V[,V...] is required");
    const target = resolveTarget(typeof values.target === "string" ? values.target : DEFAULT_LAUNCH_TARGET, deviceFacts(values));
    try {
      const { module, workspace, context } = await loadModule(file, output.json, [target.environment]);
      if (!module) return 1;
      const symbol = values.kernel.replace(/^@/, "");
      const kernel = module.kernels().find((k) => k.symbol === symbol && k.defined);
      if (!kernel) throw new UsageError(`'${file}' has no kernel.def @${symbol} (has: ${module.kernels().filter((k) => k.defined).map((k) => `@${k.symbol}`).join(", ") || "none"})`);
      const texts = values.workload === "" ? [] : values.workload.split(",");
      if (texts.length !== kernel.workload.length) throw new UsageError(`@${symbol} takes ${kernel.workload.length} workload value(s), got ${texts.length}`);
      const bits = kernel.workload.map((arg, i) => toBits((texts[i] ?? "").trim(), arg.type, arg.name));
      const pipeline = PassProgram.fromTargetPipeline(context, { kind: "prepared-low" }).value!;
      const compiled = compileModule(Compiler.create(context), workspace, pipeline, module, {
        specializations: [{ functionSymbol: symbol, targetProfile: target.profile }],
        artifacts: { launchConfig: true },
      });
      report(compiled, output.json, file);
      if (!compiled.ok) return 1;
      const program = LaunchConfigProgram.load(compiled.findArtifact("launch-config")!);
      const fn = program.lookupFunction(kernel.exportName);
      let l;
      try {
        l = program.invoke(fn, bits);
      } catch (e) {
        // A violated `where` fact or limit: an error in this launch, not in the command line.
        if (e instanceof LoomError && (e.status === "out-of-range" || e.status === "failed-precondition" || e.status === "invalid-argument")) {
          // The artifact's location table names the source line of the failing predicate or op.
          const at = e instanceof LaunchConfigError ? e.location : undefined;
          const reason = e instanceof LaunchConfigError ? e.reason : e.message;
          const message = `${at ? `${at.source}:${at.line}:${at.column}` : file}: @${symbol}: ${e.status}: ${reason}`;
          output.errors++;
          if (output.json) output.diagnostics.push({ severity: "error", code: "LAUNCH", message, file, ...(at ? { location: { source: at.source, line: at.line, column: at.column } } : {}) });
          else console.error(`loom launch: error: ${message}`);
          return 1;
        }
        throw e;
      }
      const launch = {
        workgroupCount: [...l.workgroupCount],
        workgroupSize: [...l.workgroupSize],
        workgroupClusterSize: [...l.workgroupClusterSize],
        subgroupSize: l.subgroupSize,
        workgroupStorageBytes: Number(l.workgroupStorageBytes),
      };
      output.result = { kernel: symbol, target: typeof values.target === "string" ? values.target : DEFAULT_LAUNCH_TARGET, workload: texts.map((t) => t.trim()), launch };
      const x = (v: readonly number[]) => v.join("x");
      say(`workgroups=${x(l.workgroupCount)} workgroup_size=${x(l.workgroupSize)} cluster_size=${x(l.workgroupClusterSize)} subgroup_size=${l.subgroupSize} workgroup_storage_bytes=${l.workgroupStorageBytes}`);
      return 0;
    } finally {
      target.release();
    }
  },
};

const INT_BITS: Readonly<Record<string, number>> = { i1: 1, i8: 8, i16: 16, i32: 32, i64: 64, index: 64 };

/** Raw 64-bit argument bits of a command-line value for a declared type; out-of-range values are refused. */
function toBits(text: string, type: string, name: string): bigint {
  if (type === "f32" || type === "f64" || type === "f16" || type === "bf16") {
    const x = Number(text);
    if (text === "" || (Number.isNaN(x) && text.toLowerCase() !== "nan")) throw new UsageError(`--workload %${name}: '${text}' is not a number`);
    const buf = new DataView(new ArrayBuffer(8));
    if (type === "f64") {
      buf.setFloat64(0, x, true);
      return buf.getBigUint64(0, true);
    }
    buf.setFloat32(0, x, true);
    if (type === "f32") return BigInt(buf.getUint32(0, true));
    throw new UsageError(`--workload %${name}: ${type} workload values are not supported on the command line`);
  }
  if (!/^-?(0x[0-9a-fA-F]+|[0-9]+)$/.test(text)) throw new UsageError(`--workload %${name}: '${text}' is not an integer`);
  const neg = text.startsWith("-");
  const v = neg ? -BigInt(text.slice(1)) : BigInt(text);
  if (type === "offset") {
    if (v < 0n || v > (1n << 63n) - 1n) throw new UsageError(`--workload %${name}: ${text} is out of range for offset (0 to 2^63-1)`);
    return v;
  }
  const width = INT_BITS[type] ?? 64;
  // Signed or unsigned spellings of the type's bits are both accepted (like the runtimes' arguments).
  const lo = width === 1 ? 0n : -(1n << BigInt(width - 1));
  const hi = (1n << BigInt(width)) - 1n;
  if (v < lo || v > hi) throw new UsageError(`--workload %${name}: ${text} is out of range for ${type} (${lo} to ${hi})`);
  return BigInt.asUintN(64, v);
}

// ---- --dump -------------------------------------------------------------------------------

type Fn = LaunchConfigFunction["data"];
type LOp = Fn["body"][number];

/** `at()` is the ` ; file:line:col` suffix of the next op other than scf.yield (the location table's order). */
function describeOps(ops: readonly LOp[], indent: string, out: string[], at: () => string): void {
  const r = (n: number) => `%r${n}`;
  for (const op of ops) {
    const suffix = op.kind === "yield" ? "" : at();
    const first = out.length;
    switch (op.kind) {
      case "constant":
        out.push(`${indent}${r(op.result)} = ${op.name} ${String(op.value)} : ${op.type}`);
        break;
      case "simple":
        out.push(`${indent}${r(op.result)} = ${op.name}${op.predicate ? ` ${op.predicate},` : ""} ${op.operands.map(r).join(", ")} : ${op.type}`);
        break;
      case "assume":
        out.push(`${indent}${op.results.map(r).join(", ")} = ${op.name} ${op.operands.map(r).join(", ")} where ${op.predicates.map((p) => `${p.kind}(${p.args.map(String).join(", ")})`).join(", ")}`);
        break;
      case "select":
        out.push(`${indent}${r(op.result)} = select ${op.operands.map(r).join(", ")}`);
        break;
      case "if":
        out.push(`${indent}${op.results.map(r).join(", ")}${op.results.length ? " = " : ""}if ${r(op.cond)} {`);
        describeOps(op.then, `${indent}  `, out, at);
        if (op.hasElse) {
          out.push(`${indent}} else {`);
          describeOps(op.else, `${indent}  `, out, at);
        }
        out.push(`${indent}}`);
        break;
      case "for":
        out.push(`${indent}${op.results.map(r).join(", ")}${op.results.length ? " = " : ""}for ${r(op.iv)} = ${r(op.lo)} to ${r(op.hi)} step ${r(op.step)} iter(${op.iterArgs.map(r).join(", ")} = ${op.inits.map(r).join(", ")}) {`);
        describeOps(op.body, `${indent}  `, out, at);
        out.push(`${indent}}`);
        break;
      case "yield":
        out.push(`${indent}yield ${op.operands.map(r).join(", ")}`);
        break;
      case "launch":
        out.push(`${indent}launch workgroups(${op.operands.slice(0, 3).map(r).join(", ")}) workgroup_size(${op.operands.slice(3, 6).map(r).join(", ")})${op.operands.length > 6 ? ` cluster(${op.operands.slice(6).map(r).join(", ")})` : ""}`);
        break;
    }
    if (suffix) out[first] += suffix;
  }
}

async function dump(file: string): Promise<number> {
  const bytes = readInput(file);
  let program: LaunchConfigProgram;
  try {
    program = LaunchConfigProgram.load(bytes);
  } catch (e) {
    if (e instanceof LoomError) {
      const message = `${file}: not a launch-config companion: ${e.message}`;
      output.errors++;
      if (output.json) output.diagnostics.push({ severity: "error", code: "LAUNCH", message, file });
      else console.error(`loom launch: error: ${message}`);
      return 1;
    }
    throw e;
  }
  const lines = [`; ${file}: launch-config companion from ${program.producer}, ${program.functionNames.length} function(s)`];
  const functions: unknown[] = [];
  for (const name of program.functionNames) {
    const data = program.lookupFunction(name).data;
    const locs = data.locations;
    const cite = (l: { source: string; line: number; column: number } | undefined) => (l ? ` ; ${l.source}:${l.line}:${l.column}` : "");
    lines.push(`function @${name}(${data.args.map((a, i) => `%r${i}: ${a.type} /* ${a.name} */`).join(", ")})${cite(locs?.function)}`);
    data.where.forEach((p, i) => lines.push(`  where ${p.kind}(${p.args.map(String).join(", ")})${cite(locs?.where[i])}`));
    lines.push(`  subgroup_size ${data.subgroupSize}  workgroup_storage_bytes ${data.workgroupStorageBytes}`);
    lines.push(
      `  limits max_workgroup_count=${data.limits.maxWorkgroupCount.join("x")} max_workgroup_size=${data.limits.maxWorkgroupSize.join("x")} max_flat_workgroup_size=${data.limits.maxFlatWorkgroupSize}`,
    );
    lines.push("  {");
    let k = 0;
    describeOps(data.body, "    ", lines, () => cite(locs?.ops[k++]));
    lines.push("  }");
    functions.push({ name, arguments: data.args.map((a) => ({ name: a.name, type: a.type })), subgroupSize: data.subgroupSize, workgroupStorageBytes: data.workgroupStorageBytes, ops: data.body.length });
  }
  output.result = { producer: program.producer, functions };
  say(lines.join("\n"));
  return 0;
}
