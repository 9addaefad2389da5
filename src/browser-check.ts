/**
 * `loomc/browser/check`: what a page needs besides `loomc/browser` to check device results on the
 * host — the reference interpreter (`prepareReferenceKernel`) and the check harness
 * (`CheckProgram`, `CheckUnsupported`) — and to keep artifacts across compiles (`ArtifactCache`,
 * whose keys need SHA-256), and to show SPIR-V as text (`disassembleSpirv`). A separate entry because a page that only compiles never runs them
 * (the harness adds about 14 KB gzipped to `loomc/browser`, the cache about 5 KB); bundled together with
 * `loomc/browser`, the two share every module (no code twice). No Node import.
 */
export { ArtifactCache, CheckProgram, CheckUnsupported, prepareReferenceKernel } from "./index.js";
// The check harness's op syntax (check.case …), which loomc/browser leaves out.
import "./api/check-dialect.js";
// The SPIR-V target's disassembler (spirv-dis's text), for showing modules in a page; also `loomc/target/spirv`'s.
export { disassembleSpirv } from "./targets/spirv/disassemble.js";
