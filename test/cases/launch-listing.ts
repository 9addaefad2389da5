/**
 * A readable listing of launch-config functions (docs/launch-config.md): header fields,
 * arguments and `where` predicates, then one op per line in register form with its wire
 * opcode. Registers are numbered as the encoding implies them (model.ts), so the listing
 * shows exactly what an evaluator sees.
 */
import type { LOp, LPredicate, LaunchFunction } from "../../src/launch/model.js";
import { OP_BY_NAME } from "../../src/launch/ops.js";

const reg = (r: number) => `r${r}`;
const regs = (rs: readonly number[]) => rs.map(reg).join(", ");
const triple = (t: readonly number[]) => t.join("x");

function opcode(name: string): string {
  const info = OP_BY_NAME.get(name);
  if (!info) throw new Error(`launch op '${name}' has no opcode`);
  return `[${info.opcode}]`;
}

function predicate(p: LPredicate): string {
  return `${p.kind}(${p.args.map((a) => (typeof a === "bigint" ? String(a) : reg(a))).join(", ")})`;
}

function constant(value: bigint | number): string {
  if (typeof value === "bigint") return String(value);
  return Object.is(value, -0) ? "-0.0" : Number.isInteger(value) ? value.toFixed(1) : String(value);
}

function ops(list: readonly LOp[], indent: string, out: string[]): void {
  const line = (text: string, name: string) => out.push(`${indent}${text.padEnd(56 - indent.length)} ${opcode(name)}`);
  for (const op of list) {
    switch (op.kind) {
      case "constant":
        line(`${reg(op.result)} = ${op.name} ${constant(op.value)} : ${op.type}`, op.name);
        break;
      case "simple": {
        const flags = op.flags ? ` flags=${op.flags}` : "";
        const pred = op.predicate ? ` ${op.predicate},` : "";
        line(`${reg(op.result)} = ${op.name}${pred} ${regs(op.operands)}${flags} : ${op.type}`, op.name);
        break;
      }
      case "assume":
        line(`${regs(op.results)} = ${op.name} ${regs(op.operands)} where ${op.predicates.map(predicate).join(", ")}`, op.name);
        break;
      case "select":
        line(`${reg(op.result)} = scf.select ${regs(op.operands)}`, "scf.select");
        break;
      case "if":
        line(`${op.results.length ? `${regs(op.results)} = ` : ""}scf.if ${reg(op.cond)} -> (${op.resultTypes.join(", ")}) {`, "scf.if");
        ops(op.then, `${indent}  `, out);
        if (op.hasElse) {
          out.push(`${indent}} else {`);
          ops(op.else, `${indent}  `, out);
        }
        out.push(`${indent}}`);
        break;
      case "for":
        line(`${op.results.length ? `${regs(op.results)} = ` : ""}scf.for ${reg(op.iv)} = [${reg(op.lo)} to ${reg(op.hi)} step ${reg(op.step)}](${op.iterArgs.map((a, i) => `${reg(a)} = ${reg(op.inits[i] ?? -1)}`).join(", ")}) {`, "scf.for");
        ops(op.body, `${indent}  `, out);
        out.push(`${indent}}`);
        break;
      case "yield":
        line(`scf.yield ${regs(op.operands)}`, "scf.yield");
        break;
      case "launch":
        line(`kernel.launch.config workgroups(${regs(op.operands.slice(0, 3))}) workgroup_size(${regs(op.operands.slice(3, 6))})${op.operands.length > 6 ? ` cluster(${regs(op.operands.slice(6))})` : ""}`, "kernel.launch.config");
        break;
    }
  }
}

export function launchListing(functions: readonly LaunchFunction[]): string {
  const out: string[] = [];
  for (const f of functions) {
    out.push(`function "${f.exportName}"`);
    out.push(`  subgroup size ${f.subgroupSize}, workgroup storage ${f.workgroupStorageBytes} bytes`);
    out.push(`  limits: workgroup count ${triple(f.limits.maxWorkgroupCount)}, workgroup size ${triple(f.limits.maxWorkgroupSize)}, flat ${f.limits.maxFlatWorkgroupSize}`);
    out.push(`  args: ${f.args.map((a, i) => `${reg(i)} %${a.name}: ${a.type}`).join(", ") || "(none)"}`);
    out.push(`  where: ${f.where.map(predicate).join(", ") || "(none)"}`);
    out.push(`  registers: ${f.registerTypes.length}`);
    ops(f.body, "  ", out);
  }
  return `${out.join("\n")}\n`;
}
