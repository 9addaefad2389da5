/**
 * Lowering a prepared device body to AMDGPU instructions. Today the body the backend
 * accepts is `kernel.return`, which becomes `s_endpgm` (the pipeline removed dead ops);
 * `check.ts` reports every other op before emission, so meeting one here is a bug.
 */
import { LoomError } from "../../core/errors.js";
import type { Region } from "../../ir/core.js";
import { NO_RESOURCES, type KernelResources } from "./descriptor.js";
import { instruction, type Instruction } from "./isa/encoder.js";
import { isOp } from "../../dialects/registry.js";

export interface LoweredKernel {
  readonly program: readonly Instruction[];
  readonly resources: KernelResources;
}

export function lowerKernelBody(body: Region): LoweredKernel {
  const program: Instruction[] = [];
  for (const op of body.ops) {
    switch (op.name) {
      case "kernel.return":
        program.push(instruction("s_endpgm"));
        break;
      default:
        throw new LoomError("internal", `AMDGPU lowering reached '${op.name}', which check() should have rejected`);
    }
  }
  return { program, resources: NO_RESOURCES };
}

/** True when the body's last op returns (the program then ends in s_endpgm). */
export function endsInReturn(body: Region): boolean {
  return isOp(body.ops.at(-1), "kernel.return");
}
