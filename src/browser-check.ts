/**
 * `loomc/browser/check`: what a page needs besides `loomc/browser` to check device results on the
 * host — the reference interpreter (`prepareReferenceKernel`) and the check harness
 * (`CheckProgram`, `CheckUnsupported`). A separate entry because a page that only compiles never
 * runs them (they add about 14 KB gzipped to `loomc/browser`); bundled together with
 * `loomc/browser`, the two share every module (no code twice). No Node import.
 */
export { CheckProgram, CheckUnsupported, prepareReferenceKernel } from "./index.js";
