/**
 * Registers the check harness (language.md §11: `check.case`, `check.benchmark`,
 * `kernel.launch` …): its op syntax with the parser and printer, its rules with the verifier.
 * `loomc`, `loomc/browser/check`, the check program and the compile pool import it;
 * `loomc/browser` does not, so a page that only compiles leaves it out
 * (test/browser/entry.test.ts).
 */
import "../text/syntax/check.js";
import "../passes/verify/check.js";
import "../dialects/test-target.js";
