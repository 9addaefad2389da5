/**
 * Registers the check harness (language.md §11: `check.case`, `check.benchmark`,
 * `kernel.launch` …): its op syntax with the parser and printer, its rules with the verifier.
 * `loomc`, `loomc/browser/check`, the check program and the compile pool import it;
 * `loomc/browser` does not, so a page that only compiles leaves it out
 * (test/browser/entry.test.ts).
 */
// The declarations first, so the parser (loaded by the syntax) knows their names from the start.
import "../dialects/ops/check.js";
import "../text/syntax/check.js";
import "../passes/verify/check.js";
import "../dialects/test-target.js";
