/**
 * `loomc/harness`: the kernel-suite harness (docs/kernels.md). Suite cases and their seeded
 * inputs, output comparison, the manifest lookup, and running a case on a device (Vulkan,
 * CUDA: docs/harness.md) against the reference interpreter (the CPU oracle). `loom run`, the e2e suite and
 * bench/vulkan-suite.ts are built on it; it is built on the public entry points.
 */
export { random, type HostArray, type Comparison, type CaseArgument, type ExpectedOutput, type KernelCase, type CaseShape, type SuiteKernel } from "./cases.js";
export { compareOutput, describeCheck, median, type OutputCheck } from "./compare.js";
export { CaseError } from "./errors.js";
export { findSuiteKernel } from "./manifest.js";
export {
  vulkanDevice,
  cudaDevice,
  ptxTargetFor,
  spirvEnvironment,
  ptxEnvironment,
  findDeviceProvider,
  deviceKinds,
  registerDeviceProvider,
  type HarnessDevice,
  type HarnessBuffer,
  type LoadedKernel,
  type DeviceProvider,
} from "./devices.js";
export {
  compileForDevice,
  compileKernel,
  deviceProfile,
  workloadBits,
  runCase,
  interpretCase,
  genericCase,
  type DeviceKernel,
  type DeviceTarget,
  type CompileOutcome,
  type RunOptions,
  type CaseResult,
} from "./device.js";
export {
  parseLoomTestFile,
  runLoomTest,
  type LoomTestCase,
  type LoomTestFile,
  type LoomTestReport,
  type LoomTestOptions,
  type CaseOutcome,
  type CaseStatus,
  type AnnotationMatch,
} from "./loom-test.js";
export {
  runCheckModule,
  type CheckReport,
  type CheckCaseReport,
  type CheckBenchmarkReport,
  type CheckSampleReport,
  type CheckRunOptions,
  type CheckStatus,
  type BenchmarkTiming,
  type SampleError,
} from "./check.js";
