/**
 * `loomc/target/spirv`: the SPIR-V (Vulkan 1.3) target package. Create the environment once,
 * register it with a `Context`, and make profiles from Vulkan feature/limit names; the device
 * ABI a runtime must follow is docs/abi.md "SPIR-V".
 */
export * from "./api.js";
export { disassembleSpirv } from "./disassemble.js";
