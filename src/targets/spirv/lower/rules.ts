/**
 * The SPIR-V lowering table: one entry per declared op (src/dialects/ops), either the rule
 * that lowers it or the reason it never reaches the back end. It is a `Record<OpName, ...>`,
 * so declaring an op without deciding how SPIR-V lowers it is a type error.
 */
import { NEVER_LOWERED, type LoweringTable } from "../../../dialects/lowering.js";
import { ARITH_RULES } from "./arith-rules.js";
import type { OpRule } from "./context.js";
import { CONTROL_RULES } from "./control-rules.js";
import { KERNEL_RULES } from "./kernel-rules.js";
import { MEMORY_RULES } from "./memory-rules.js";
import { VECTOR_RULES } from "./vector-rules.js";

export const SPIRV_RULES: LoweringTable<OpRule> = {
  ...NEVER_LOWERED,
  ...ARITH_RULES,
  ...CONTROL_RULES,
  ...MEMORY_RULES,
  ...KERNEL_RULES,
  ...VECTOR_RULES,
};
