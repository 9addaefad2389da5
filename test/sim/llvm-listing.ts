/**
 * Reads `llvm-objdump-19 -d` listings of AMDGPU code: one row per instruction with its address,
 * LLVM's base mnemonic and its length in bytes (from the printed encoding dwords).
 */
import { runTool } from "../util/tools.js";
import { baseMnemonic } from "./opcode-capture.js";

export interface ListingRow {
  readonly address: number;
  readonly mnemonic: string;
  readonly size: number;
  readonly text: string;
}

export function llvmListing(hsacoPath: string, mcpu: string): ListingRow[] {
  const r = runTool("llvm-objdump-19", ["-d", `--mcpu=${mcpu}`, hsacoPath]);
  if (r.status !== 0) throw new Error(`llvm-objdump-19 failed: ${r.stderr}`);
  const rows: ListingRow[] = [];
  for (const line of r.stdout.split("\n")) {
    const m = /^\t(\S+)(.*?)\/\/ ([0-9A-F]+): ((?:[0-9A-F]{8} ?)+)/.exec(line);
    if (!m) continue;
    rows.push({ address: parseInt(m[3]!, 16), mnemonic: baseMnemonic(m[1]!), size: m[4]!.trim().split(/\s+/).length * 4, text: `${m[1]}${m[2]}`.trim() });
  }
  return rows;
}
