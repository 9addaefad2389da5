/**
 * The HSACO checks of verification.md, each run through an LLVM 19 tool and returning a
 * list of problems (empty = pass), so that tests can also prove each check fails on a
 * corrupted file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runTool } from "../util/tools.js";
import { parseYaml, type YamlValue } from "./yaml.js";

export interface ArgIntent {
  readonly name: string;
  readonly offset: number;
  readonly size: number;
  readonly valueKind: "by_value" | "global_buffer";
}

export interface KernelIntent {
  readonly name: string;
  readonly kernargSize: number;
  readonly kernargAlign: number;
  readonly groupSegmentFixedSize: number;
  readonly privateSegmentFixedSize: number;
  readonly wavefrontSize: number;
  readonly sgprCount: number;
  readonly vgprCount: number;
  readonly maxFlatWorkgroupSize: number;
  readonly args: readonly ArgIntent[];
}

export interface CodeObjectIntent {
  /** e.g. "gfx1100", "gfx90a:sramecc+:xnack-". */
  readonly targetId: string;
  readonly abiVersion: 3 | 4;
  /** Words `llvm-readelf --file-header` must print after the hex flags, e.g. ["gfx11-generic", "generic_v1"]. */
  readonly flagWords: readonly string[];
  readonly kernels: readonly KernelIntent[];
}

function ran(cmd: string, args: string[], problems: string[]): string | undefined {
  const r = runTool(cmd, args);
  if (r.status !== 0) problems.push(`${cmd} ${args.join(" ")} exited ${r.status}: ${r.stderr.trim()}`);
  else if (r.stderr.trim() !== "") problems.push(`${cmd} wrote to stderr: ${r.stderr.trim()}`);
  return r.status === 0 ? r.stdout : undefined;
}

/** Step 1: ELF header. */
export function checkHeader(path: string, intent: CodeObjectIntent): string[] {
  const problems: string[] = [];
  const out = ran("llvm-readelf-19", ["--file-header", path], problems);
  if (!out) return problems;
  const field = (name: string) => new RegExp(`^\\s*${name}:\\s*(.*)$`, "m").exec(out)?.[1]?.trim();
  const expect = (name: string, value: string) => {
    if (field(name) !== value) problems.push(`${name}: expected '${value}', got '${field(name)}'`);
  };
  expect("Class", "ELF64");
  expect("OS/ABI", "AMDGPU - HSA");
  expect("ABI Version", String(intent.abiVersion));
  expect("Type", "DYN (Shared object file)");
  expect("Machine", "EM_AMDGPU");
  const flags = field("Flags")?.split(",").map((s) => s.trim()) ?? [];
  if (flags.slice(1).join(",") !== intent.flagWords.join(",")) problems.push(`Flags: expected '${intent.flagWords.join(", ")}', got '${flags.slice(1).join(", ")}'`);
  return problems;
}

function asMap(v: YamlValue | undefined): Record<string, YamlValue> | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined;
}

/** Step 2: the metadata note decodes and states the intent. */
export function checkMetadata(path: string, intent: CodeObjectIntent): string[] {
  const problems: string[] = [];
  const out = ran("llvm-readobj-19", ["--notes", "--elf-output-style=JSON", path], problems);
  if (!out) return problems;
  const notes = (JSON.parse(out) as { NoteSections?: { NoteSection: { Notes: Record<string, string>[] } }[] }[])[0]?.NoteSections?.flatMap((s) => s.NoteSection.Notes) ?? [];
  const md = notes.filter((n) => n.Type?.startsWith("NT_AMDGPU_METADATA"));
  if (md.length !== 1) return [`expected exactly one NT_AMDGPU_METADATA note, found ${md.length}`];
  const text = md[0]!["AMDGPU Metadata"];
  if (typeof text !== "string") return ["NT_AMDGPU_METADATA note did not decode"];
  let doc: Record<string, YamlValue> | undefined;
  try {
    doc = asMap(parseYaml(text));
  } catch (e) {
    return [`metadata YAML: ${(e as Error).message}`];
  }
  if (!doc) return ["metadata is not a map"];
  if (doc["amdhsa.target"] !== `amdgcn-amd-amdhsa--${intent.targetId}`) problems.push(`amdhsa.target = ${String(doc["amdhsa.target"])}`);
  if (JSON.stringify(doc["amdhsa.version"]) !== "[1,2]") problems.push(`amdhsa.version = ${JSON.stringify(doc["amdhsa.version"])}`);
  const kernels = doc["amdhsa.kernels"];
  if (!Array.isArray(kernels) || kernels.length !== intent.kernels.length) return [...problems, `amdhsa.kernels: expected ${intent.kernels.length} kernels`];
  intent.kernels.forEach((k, i) => {
    const m = asMap(kernels[i]);
    if (!m) return problems.push(`kernel ${i} is not a map`);
    const expect: Record<string, YamlValue> = {
      ".name": k.name,
      ".symbol": `${k.name}.kd`,
      ".kernarg_segment_size": k.kernargSize,
      ".kernarg_segment_align": k.kernargAlign,
      ".group_segment_fixed_size": k.groupSegmentFixedSize,
      ".private_segment_fixed_size": k.privateSegmentFixedSize,
      ".sgpr_count": k.sgprCount,
      ".vgpr_count": k.vgprCount,
      ".wavefront_size": k.wavefrontSize,
      ".max_flat_workgroup_size": k.maxFlatWorkgroupSize,
      ".uses_dynamic_stack": false,
    };
    for (const [key, value] of Object.entries(expect)) {
      if (m[key] !== value) problems.push(`${k.name} ${key}: expected ${JSON.stringify(value)}, got ${JSON.stringify(m[key])}`);
    }
    const args = m[".args"];
    if (!Array.isArray(args)) return problems.push(`${k.name} .args missing`);
    const want = k.args.map((a) => ({
      ...(a.valueKind === "global_buffer" ? { ".address_space": "global" } : {}),
      ".name": a.name,
      ".offset": a.offset,
      ".size": a.size,
      ".value_kind": a.valueKind,
    }));
    if (JSON.stringify(args) !== JSON.stringify(want)) problems.push(`${k.name} .args: expected ${JSON.stringify(want)}, got ${JSON.stringify(args)}`);
    let end = 0;
    for (const a of args.map(asMap)) {
      const off = Number(a?.[".offset"]);
      const size = Number(a?.[".size"]);
      if (!(off >= end)) problems.push(`${k.name} .args overlap or are unsorted at offset ${off}`);
      end = off + size;
    }
    if (end > k.kernargSize) problems.push(`${k.name} .args end at ${end}, beyond the kernarg segment (${k.kernargSize})`);
    return undefined;
  });
  return problems;
}

interface DynSym {
  value: bigint;
  size: number;
  type: string;
  bind: string;
  name: string;
}

function dynSymbols(path: string, problems: string[]): DynSym[] | undefined {
  const out = ran("llvm-readelf-19", ["--dyn-symbols", path], problems);
  if (!out) return undefined;
  const syms: DynSym[] = [];
  for (const line of out.split("\n")) {
    const m = /^\s*\d+:\s+([0-9a-f]+)\s+(\d+)\s+(\w+)\s+(\w+)\s+\w+\s+\S+\s+(\S+)$/.exec(line);
    if (m) syms.push({ value: BigInt(`0x${m[1]}`), size: Number(m[2]), type: m[3]!, bind: m[4]!, name: m[5]! });
  }
  return syms;
}

/** Step 3: per kernel FUNC GLOBAL <name> and OBJECT GLOBAL <name>.kd of size 64. */
export function checkDynSymbols(path: string, intent: CodeObjectIntent): string[] {
  const problems: string[] = [];
  const syms = dynSymbols(path, problems);
  if (!syms) return problems;
  for (const k of intent.kernels) {
    const fn = syms.filter((s) => s.name === k.name);
    const kd = syms.filter((s) => s.name === `${k.name}.kd`);
    if (fn.length !== 1 || fn[0]!.type !== "FUNC" || fn[0]!.bind !== "GLOBAL") problems.push(`no single FUNC GLOBAL ${k.name}`);
    if (kd.length !== 1 || kd[0]!.type !== "OBJECT" || kd[0]!.bind !== "GLOBAL" || kd[0]!.size !== 64) problems.push(`no single OBJECT GLOBAL ${k.name}.kd of size 64`);
  }
  return problems;
}

/** Step 4: descriptor bytes read through the section table agree with the metadata and symbols. */
export function checkDescriptors(path: string, intent: CodeObjectIntent): string[] {
  const problems: string[] = [];
  const syms = dynSymbols(path, problems);
  const out = ran("llvm-readelf-19", ["-S", "-W", path], problems);
  if (!syms || !out) return problems;
  const sections: { addr: bigint; off: number; size: number }[] = [];
  for (const line of out.split("\n")) {
    const m = /^\s*\[\s*\d+\]\s+\S+\s+\S+\s+([0-9a-f]{16})\s+([0-9a-f]+)\s+([0-9a-f]+)/.exec(line);
    if (m) sections.push({ addr: BigInt(`0x${m[1]}`), off: Number(`0x${m[2]}`), size: Number(`0x${m[3]}`) });
  }
  const file = readFileSync(path);
  for (const k of intent.kernels) {
    const kd = syms.find((s) => s.name === `${k.name}.kd`);
    const fn = syms.find((s) => s.name === k.name);
    if (!kd || !fn) {
      problems.push(`symbols of ${k.name} missing`);
      continue;
    }
    const sec = sections.find((s) => s.addr !== 0n && kd.value >= s.addr && kd.value + 64n <= s.addr + BigInt(s.size));
    if (!sec) {
      problems.push(`${k.name}.kd address 0x${kd.value.toString(16)} is in no section`);
      continue;
    }
    const at = sec.off + Number(kd.value - sec.addr);
    const bytes = file.subarray(at, at + 64);
    if (bytes.readUInt32LE(0) !== k.groupSegmentFixedSize) problems.push(`${k.name}.kd group segment ${bytes.readUInt32LE(0)}`);
    if (bytes.readUInt32LE(4) !== k.privateSegmentFixedSize) problems.push(`${k.name}.kd private segment ${bytes.readUInt32LE(4)}`);
    if (bytes.readUInt32LE(8) !== k.kernargSize) problems.push(`${k.name}.kd kernarg size ${bytes.readUInt32LE(8)}`);
    const entry = kd.value + bytes.readBigInt64LE(16);
    if (entry !== fn.value) problems.push(`${k.name}.kd entry 0x${entry.toString(16)} != ${k.name} at 0x${fn.value.toString(16)}`);
  }
  return problems;
}

/** Instruction text per symbol from `llvm-objdump -d`, comments stripped. */
function disassemble(path: string, mcpu: string, problems: string[]): Map<string, string[]> | undefined {
  const out = ran("llvm-objdump-19", ["-d", `--mcpu=${mcpu}`, path], problems);
  if (!out) return undefined;
  const blocks = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of out.split("\n")) {
    const head = /^[0-9a-f]+ <(.+)>:$/.exec(line);
    if (head) blocks.set(head[1]!, (current = []));
    else if (line.startsWith("\t")) {
      const text = line.replace(/\/\/.*$/, "").trim();
      if (!current) problems.push(`instruction outside a symbol: ${text}`);
      else current.push(text);
    }
  }
  return blocks;
}

const PADDING = new Set(["s_code_end", "s_nop 0"]);

/** Step 5: clean disassembly; each kernel ends in s_endpgm, then only padding. */
export function checkDisassembly(path: string, mcpu: string, intent: CodeObjectIntent): string[] {
  const problems: string[] = [];
  const blocks = disassemble(path, mcpu, problems);
  if (!blocks) return problems;
  for (const [name, lines] of blocks) {
    for (const l of lines) if (/<unknown>|^\.long\b/.test(l)) problems.push(`${name}: undecodable word: ${l}`);
  }
  for (const k of intent.kernels) {
    const lines = blocks.get(k.name);
    if (!lines) {
      problems.push(`no disassembly for ${k.name}`);
      continue;
    }
    let last = lines.length - 1;
    while (last >= 0 && PADDING.has(lines[last]!)) last--;
    if (lines[last] !== "s_endpgm") problems.push(`${k.name} does not end in s_endpgm (last: ${lines[last]})`);
  }
  return problems;
}

/** Step 6: re-assembling the disassembly reproduces `.text` byte for byte. */
export function checkRoundTrip(path: string, mcpu: string, dir: string): string[] {
  const problems: string[] = [];
  const out = ran("llvm-objdump-19", ["-d", `--mcpu=${mcpu}`, path], problems);
  if (!out) return problems;
  const asm = out
    .split("\n")
    .filter((l) => l.startsWith("\t"))
    .map((l) => l.replace(/\/\/.*$/, ""))
    .join("\n");
  const rtS = join(dir, "rt.s");
  const rtO = join(dir, "rt.o");
  writeFileSync(rtS, asm + "\n");
  const mc = runTool("llvm-mc-19", ["-triple=amdgcn-amd-amdhsa", `-mcpu=${mcpu}`, "-filetype=obj", rtS, "-o", rtO]);
  if (mc.status !== 0 || /not a recognized processor|error/.test(mc.stderr)) return [`llvm-mc-19 failed: ${mc.stderr.trim()}`];
  const rtBin = join(dir, "rt.bin");
  const kBin = join(dir, "k.bin");
  if (ran("llvm-objcopy-19", ["-O", "binary", "--only-section=.text", rtO, rtBin], problems) === undefined) return problems;
  if (ran("llvm-objcopy-19", ["-O", "binary", "--only-section=.text", path, kBin], problems) === undefined) return problems;
  if (Buffer.compare(readFileSync(rtBin), readFileSync(kBin)) !== 0) problems.push(".text differs after disassemble + re-assemble");
  return problems;
}
