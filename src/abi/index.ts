/**
 * The device ABI as data (docs/abi.md): the explicit argument block (and its packer), the binding and
 * push-constant conventions, and the kernel-interface record. Imports nothing from the rest of
 * loom, so the compiler and every runtime can share it.
 */
export {
  ARGUMENT_ENCODINGS,
  ARGUMENT_BLOCK_ALIGN,
  BUFFER_ADDRESS_FIELD,
  BUFFER_LENGTH_FIELD,
  alignUp,
  isDeviceArgumentType,
  layoutArgumentBlock,
  type DeviceArgumentType,
} from "./arguments.js";
export {
  ArgumentValueError,
  packArgumentBlock,
  writeArgument,
  type BufferEncoding,
  minifloatBits,
  type ArgumentSlot,
  type ArgumentValue,
  type BufferArgumentValue,
} from "./pack.js";
export { BUFFER_DESCRIPTOR_SET, bufferBindings, pushConstantRange, type BufferAddressing, type BufferBinding } from "./conventions.js";
export {
  KERNEL_INTERFACE_VERSION,
  InterfaceRecordError,
  checkExecutableInterface,
  parseExecutableInterface,
  encodeExecutableInterface,
  describesExecutable,
  fingerprintOf,
  crc32,
  type ExecutableInterface,
  type KernelInterface,
  type InterfaceArgument,
  type SubgroupRequirements,
  type TargetKernelInterface,
} from "./interface.js";
