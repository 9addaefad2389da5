/**
 * Builds the kernel-interface record (docs/abi.md) of an emitted executable from the prepared
 * kernels it holds and what the target's emit reported about them.
 */
import {
  KERNEL_INTERFACE_VERSION,
  bufferBindings,
  fingerprintOf,
  isDeviceArgumentType,
  type ExecutableInterface,
  type InterfaceArgument,
  type KernelInterface,
  type TargetKernelInterface,
} from "../abi/index.js";
import { LoomError } from "../core/errors.js";
import type { PreparedKernel } from "../core/prepared.js";
import type { EmitOutput } from "../core/target.js";
import type { Value } from "../ir/core.js";
import { walkRegion } from "../ir/walk.js";
import { isOp } from "../dialects/registry.js";

/** Element types of the views over each buffer argument (through assume ops), in first-use order. */
function viewedElementTypes(kernel: PreparedKernel): Map<number, string[]> {
  const origin = new Map<Value, number>();
  for (const [i, a] of kernel.body.args.entries()) origin.set(a, i);
  const found = new Map<number, string[]>();
  walkRegion(kernel.body, (op) => {
    if (op.name.startsWith("buffer.assume.")) {
      for (const [k, r] of op.results.entries()) {
        const operand = op.operands[k];
        const from = operand && origin.get(operand);
        if (from !== undefined) origin.set(r, from);
      }
      return;
    }
    if (!isOp(op, "buffer.view")) return;
    const source = op.operands[0];
    const i = source && origin.get(source);
    const t = op.results[0]?.type;
    if (i === undefined || t?.kind !== "view") return;
    const list = found.get(i) ?? [];
    if (!list.includes(t.element.name)) list.push(t.element.name);
    found.set(i, list);
  });
  return found;
}

function kernelInterface(kernel: PreparedKernel, target: TargetKernelInterface | undefined): KernelInterface {
  const elements = viewedElementTypes(kernel);
  const args = kernel.args.map((slot, i): InterfaceArgument => {
    const type = slot.type.kind === "prim" ? slot.type.name : "";
    if (!isDeviceArgumentType(type)) throw new LoomError("internal", `kernel interface: '@${kernel.symbol}' argument ${i} has no device-argument type`);
    const viewed = type === "buffer" ? elements.get(i) : undefined;
    return { name: slot.name, type, offset: slot.offset, size: slot.size, ...(viewed ? { elementTypes: viewed } : {}) };
  });
  const addressing = target?.bufferAddressing ?? "kernarg";
  const operations = target?.subgroupOperations ?? [];
  return {
    symbol: kernel.symbol,
    entryName: kernel.exportName,
    arguments: args,
    argumentBlockBytes: kernel.argBlockSize,
    bufferAddressing: addressing,
    bindings: bufferBindings(args.map((a) => a.type), addressing).map((b) => (target?.readOnlyBindings?.includes(b.binding) ? { ...b, readOnly: true as const } : b)),
    workgroupSize: kernel.staticWorkgroupSize ? [...kernel.staticWorkgroupSize] : "launch-config",
    subgroup: { size: kernel.subgroupSize, fullSubgroups: operations.length > 0, operations: [...operations] },
    requiredFeatures: [...(target?.requiredFeatures ?? [])],
    workgroupStorageBytes: kernel.workgroupStorageBytes,
  };
}

/** The record of `contents`, the executable emitted for `kernels` (all of one target). */
export function executableInterface(kernels: readonly PreparedKernel[], out: EmitOutput, format: string, identifier: string, contents: Uint8Array): ExecutableInterface {
  const byEntry = new Map((out.kernelInterfaces ?? []).map((k) => [k.entryName, k]));
  const first = kernels[0];
  return {
    version: KERNEL_INTERFACE_VERSION,
    format,
    identifier,
    environment: first?.profile.environment ?? "",
    target: first?.profile.target ?? "",
    executable: fingerprintOf(contents),
    kernels: kernels.map((k) => kernelInterface(k, byEntry.get(k.exportName))),
  };
}
