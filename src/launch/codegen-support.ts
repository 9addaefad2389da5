/**
 * Whether this JS realm lets us compile code from strings. A page whose
 * Content-Security-Policy lacks 'unsafe-eval' (or a `node:vm` context created with
 * `codeGeneration: { strings: false }`) makes `new Function` throw an `EvalError`; there
 * `LaunchConfigProgram` evaluates with closures instead (closure-fast.ts, closure-exact.ts).
 * Probed once per realm: the policy cannot change under a running page.
 */
let available: boolean | undefined;

export function codeGenerationAvailable(): boolean {
  if (available === undefined) {
    try {
      available = new Function("return 1")() === 1;
    } catch {
      available = false;
    }
  }
  return available;
}
