/**
 * The koffi struct layouts equal the C compiler's for the real vulkan_core.h: every member
 * offset and every struct size (an oracle sharing no code with structs.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadKoffi } from "../../../src/runtime/vulkan/koffi.js";
import { defineStructs, parseMembers, STRUCT_DECLS, type StructName } from "../../../src/runtime/vulkan/structs.js";
import { requireTool, runTool } from "../../util/tools.js";

const HEADER = "/usr/include/vulkan/vulkan_core.h";

test("every struct member offset and size matches gcc on vulkan_core.h", (t) => {
  if (!requireTool(t, "gcc", "apt-get install -y gcc")) return;
  if (!existsSync(HEADER)) {
    const why = `${HEADER} missing (apt-get install -y libvulkan-dev; see toolchain.md §1)`;
    if (process.env.REQUIRE_ALL_TOOLS === "1") throw new Error(`REQUIRE_ALL_TOOLS=1 but ${why}`);
    console.log(`SKIP ${t.name}: ${why}`);
    t.skip(why);
    return;
  }
  const lines: string[] = [];
  for (const [name, decl] of STRUCT_DECLS) {
    lines.push(`  printf("${name} %zu\\n", sizeof(${name}));`);
    for (const m of parseMembers(decl)) lines.push(`  printf("${name}.${m.name} %zu\\n", offsetof(${name}, ${m.name}));`);
  }
  const program = `#include <stdio.h>\n#include <stddef.h>\n#include <vulkan/vulkan_core.h>\nint main(void) {\n${lines.join("\n")}\n  return 0;\n}\n`;
  const dir = mkdtempSync(join(tmpdir(), "loom-vk-layout-"));
  try {
    writeFileSync(join(dir, "layout.c"), program);
    const cc = runTool("gcc", ["-std=c11", "-o", join(dir, "layout"), join(dir, "layout.c")]);
    assert.equal(cc.status, 0, `gcc failed (a member name is wrong?):\n${cc.stderr}`);
    const out = runTool(join(dir, "layout"), []);
    assert.equal(out.status, 0);
    const expected = new Map(out.stdout.trim().split("\n").map((l) => l.split(" ") as [string, string]));

    const structs = defineStructs(loadKoffi());
    let checked = 0;
    for (const [name, decl] of STRUCT_DECLS) {
      const type = structs[name as StructName];
      assert.equal(String(type.size), expected.get(name), `sizeof(${name})`);
      for (const m of parseMembers(decl)) {
        assert.equal(String(type.members![m.name]!.offset), expected.get(`${name}.${m.name}`), `offsetof(${name}, ${m.name})`);
        checked++;
      }
    }
    assert.ok(checked > 300, `checked ${checked} members`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
