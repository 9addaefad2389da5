/**
 * The SPIR-V lowering table: one entry per declared op (src/dialects/ops), either the rule
 * that lowers it or the reason it never reaches the back end. It is a `Record<OpName, ...>`,
 * so declaring an op without deciding how SPIR-V lowers it is a type error.
 */
import type { OpName } from "../../../dialects/registry.js";
import { ARITH_RULES } from "./arith-rules.js";
import type { OpRule } from "./context.js";
import { CONTROL_RULES } from "./control-rules.js";
import { KERNEL_RULES } from "./kernel-rules.js";
import { MEMORY_RULES } from "./memory-rules.js";
import { VECTOR_RULES } from "./vector-rules.js";

/** An op the back end does not lower: why it cannot meet one in a prepared kernel body. */
export interface Unsupported {
  readonly unsupported: string;
}

const TOP_LEVEL: Unsupported = { unsupported: "top-level op, never inside a kernel body" };
const TERMINATOR: Unsupported = { unsupported: "region terminator, read by the rule of the op owning the region" };
const RESOLVED: Unsupported = { unsupported: "resolved before lowering (inlined, specialized or a launch-config op)" };

export const SPIRV_RULES: { readonly [N in OpName]: OpRule | Unsupported } = {
  "kernel.def": TOP_LEVEL,
  "kernel.decl": TOP_LEVEL,
  "func.def": TOP_LEVEL,
  "func.decl": TOP_LEVEL,
  "template.decl": TOP_LEVEL,
  "template.def": TOP_LEVEL,
  "config.decl": TOP_LEVEL,
  "config.def": TOP_LEVEL,
  "target.decl": TOP_LEVEL,
  "module.import": TOP_LEVEL,
  alias: TOP_LEVEL,
  "kernel.return": TERMINATOR,
  "scf.yield": TERMINATOR,
  "scf.condition": TERMINATOR,
  "func.return": TERMINATOR,
  "template.return": TERMINATOR,
  "kernel.launch.config": RESOLVED,
  "func.call": RESOLVED,
  "template.apply": RESOLVED,
  "template.call": RESOLVED,
  "config.get": RESOLVED,
  "target.subgroup.size": RESOLVED,
  ...ARITH_RULES,
  ...CONTROL_RULES,
  ...MEMORY_RULES,
  ...KERNEL_RULES,
  ...VECTOR_RULES,
};

/** The rule lowering op `name`, or undefined when SPIR-V has none. */
export function ruleFor(name: string): OpRule | undefined {
  const entry = Object.hasOwn(SPIRV_RULES, name) ? SPIRV_RULES[name as OpName] : undefined;
  return typeof entry === "function" ? entry : undefined;
}
