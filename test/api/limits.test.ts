import { test } from "node:test";
import assert from "node:assert/strict";
import { compileModule } from "../../src/index.js";
import { prepared } from "./helpers.js";

/** A kernel with a given workgroup size, workgroup allocation and device args. */
function kernel(o: { size?: [number, number, number]; storage?: number; args?: string }): string {
  const [x, y, z] = o.size ?? [64, 1, 1];
  const alloca = o.storage === undefined ? "" : `  %bytes = index.constant ${o.storage} : offset\n  %s = buffer.alloca<workgroup> align(16) %bytes : buffer\n`;
  return `kernel.def @k(%n: index) {
  %x = index.constant ${x} : index
  %y = index.constant ${y} : index
  %z = index.constant ${z} : index
  kernel.launch.config workgroups(%n, %y, %z) workgroup_size(%x, %y, %z) : index
} launch(${o.args ?? ""}) {
${alloca}  kernel.return
}
`;
}

function compileCodes(text: string): { codes: string[]; lines: number[]; messages: string[] } {
  const s = prepared();
  const parsed = s.parse(text);
  assert.ok(parsed.ok, parsed.formatDiagnostics());
  const r = compileModule(s.compiler, s.workspace, s.pipeline, parsed.value!, { specializations: [{ functionSymbol: "k", targetProfile: s.profile }] });
  return { codes: r.diagnostics.map((d) => d.code), lines: r.diagnostics.map((d) => d.location?.line ?? 0), messages: r.diagnostics.map((d) => d.message) };
}

test("workgroup storage limit (TARGET/051): 64 KiB fits on gfx1100, one byte more does not", () => {
  // (The AMDGPU backend cannot lower the alloca itself yet: TARGET/001 may accompany these.)
  assert.ok(!compileCodes(kernel({ storage: 65536 })).codes.includes("TARGET/051"));
  assert.deepEqual(compileCodes(kernel({ storage: 65537 })).codes.filter((c) => c !== "TARGET/001"), ["TARGET/051"]);
});

test("workgroup size limits: per dimension (TARGET/024) and flat (TARGET/025), at the launch op", () => {
  assert.deepEqual(compileCodes(kernel({ size: [1024, 1, 1] })).codes, []);
  const big = compileCodes(kernel({ size: [2048, 1, 1] }));
  assert.deepEqual(big.codes, ["TARGET/024", "TARGET/025"]);
  assert.equal(big.messages[0], "workgroup size x = 2048 exceeds the target limit 1024");
  assert.deepEqual(compileCodes(kernel({ size: [64, 32, 1] })).codes, ["TARGET/025"]);
});

test("argument block limit (TARGET/901)", () => {
  const args = Array.from({ length: 300 }, (_, i) => `%a${i}: buffer`).join(", ");
  assert.deepEqual(compileCodes(kernel({ args })).codes, ["TARGET/901"]);
});

test("an op the AMDGPU backend cannot lower yet (f64 → bf16 here) is TARGET/001 at the op", () => {
  const text = kernel({ args: "%b: buffer" }).replace(
    "  kernel.return",
    "  %o = index.constant 0 : offset\n  %v = buffer.view %b[%o] : buffer -> view<4xf64>\n  %i = index.constant 0 : index\n  %f = view.load %v[%i] : view<4xf64> -> f64\n  %q = scalar.fptrunc %f : f64 to bf16\n  %w = scalar.extf %q : bf16 to f64\n  view.store %w, %v[%i] : f64, view<4xf64>\n  kernel.return",
  );
  const r = compileCodes(text);
  assert.ok(r.codes.includes("TARGET/001"), JSON.stringify(r));
  assert.ok(r.codes.every((c) => c === "TARGET/001"), JSON.stringify(r));
  assert.deepEqual(r.lines, [11], "the division itself is reported");
});
