/** `Module`: one parsed program, mutable, owned by one in-flight compile (api.md §3). */
import { cloneModule } from "../ir/clone.js";
import type { Module as IrModule } from "../ir/core.js";
import type { PreparedModule } from "../core/prepared.js";
import type { VerifiedModule } from "../passes/verify/index.js";
import { printModule, printType } from "../text/printer.js";
import { writeModuleBytecode } from "../bytecode/module/writer.js";
import type { Context } from "./context.js";
import { LoomError } from "../core/errors.js";
import { isOp } from "../dialects/registry.js";

/** A kernel as its module declares it: what a host needs to launch it before compiling. */
export interface KernelSignature {
  /** Symbol without '@'. */
  readonly symbol: string;
  /** The executable's entry name for it (its `export_name`, else the symbol). */
  readonly exportName: string;
  /** kernel.def (true) or a kernel.decl to link (false). */
  readonly defined: boolean;
  /** The launch-config arguments, in order, with their types as Loom text (e.g. "index", "f32"). */
  readonly workload: readonly { readonly name: string; readonly type: string }[];
}

/** Where a module is in its lifecycle: parsed → compiled (prepared-low) → emitted any number of times. */
export type ModuleState =
  | { readonly phase: "parsed" }
  | { readonly phase: "compiling" }
  | { readonly phase: "compiled"; readonly context: Context; readonly prepared: PreparedModule }
  | { readonly phase: "failed" };

/** A parsed module owned by a {@link Workspace}; the input to {@link compileModule}. */
export class Module {
  #state: ModuleState = { phase: "parsed" };
  /**
   * @internal The verifier's result for the IR as it stands, when it found no error (set by
   * parsing and linking); compilation starts from it instead of verifying again.
   */
  verified: VerifiedModule | undefined;
  /** @internal Constructed by Workspace.parseModule. */
  constructor(
    /** @internal The IR; rewritten by compilation. */
    readonly ir: IrModule,
    /** @internal Source texts by name, for rendering diagnostics. */
    readonly sourceTexts: ReadonlyMap<string, string>,
  ) {}

  get name(): string {
    return this.ir.sourceName;
  }

  /** Canonical `.loom` text (language.md §9). After compilation this is the specialized IR. */
  print(): string {
    return printModule(this.ir);
  }

  /** The module's kernels (kernel.def and kernel.decl), in source order. */
  kernels(): KernelSignature[] {
    return this.ir.ops
      .filter((op) => isOp(op, "kernel.def") || isOp(op, "kernel.decl"))
      .map((op) => {
        const symbol = op.symbol ?? "";
        const exportName = op.props.exportName;
        return {
          symbol,
          exportName: typeof exportName === "string" ? exportName : symbol,
          defined: isOp(op, "kernel.def"),
          workload: (op.regions[0]?.args ?? []).map((a) => ({ name: a.name, type: printType(a.type) })),
        };
      });
  }

  /** `.loombc` module bytecode (docs/bytecode.md): lossless, comments and SSA names kept. */
  toBytecode(): Uint8Array {
    if (this.#state.phase !== "parsed") {
      throw new LoomError("failed-precondition", `Module.toBytecode: the module was ${this.#state.phase}; bytecode holds authored modules (clone() or parse again)`);
    }
    return writeModuleBytecode(this.ir);
  }

  /** An independent copy in the parsed state; compile it for another specialization. */
  clone(): Module {
    if (this.#state.phase === "compiling") throw new LoomError("failed-precondition", "Module.clone: the module is being compiled");
    return new Module(cloneModule(this.ir), this.sourceTexts);
  }

  /** @internal */
  get state(): ModuleState {
    return this.#state;
  }
  /** @internal */
  setState(s: ModuleState): void {
    this.#state = s;
  }
}
