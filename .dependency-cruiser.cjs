/**
 * The layer rules of docs/architecture.md, enforced by test/architecture (npm test).
 * Each folder may import itself and the folders listed for it, nothing else under src/.
 * Listing only lower layers makes a folder-level cycle impossible.
 */
const ALL_TARGETS = "src/targets/[^/]+";
const LAYERS = {
  "src/ir": [],
  "src/abi": [],
  "src/core": ["src/ir", "src/abi"],
  "src/dialects": ["src/core", "src/ir"],
  "src/text": ["src/core", "src/ir", "src/dialects"],
  "src/bytecode": ["src/core", "src/ir", "src/dialects", "src/text"],
  "src/launch": ["src/core", "src/ir", "src/dialects", "src/bytecode"],
  "src/passes": ["src/core", "src/ir", "src/abi", "src/dialects", "src/text", "src/bytecode", "src/launch"],
  "src/interp": ["src/core", "src/ir", "src/abi", "src/dialects", "src/launch"],
  // A target package is one folder: it sees the foundation, never another target or the passes.
  [ALL_TARGETS]: ["src/core", "src/ir", "src/abi", "src/dialects"],
  // Runtimes never import the compiler: only the foundation and the ABI description.
  "src/runtime/[^/]+": ["src/core", "src/abi"],
  "src/api": ["src/core", "src/ir", "src/abi", "src/dialects", "src/text", "src/bytecode", "src/launch", "src/passes", "src/interp"],
};
/** Public entry points: what the CLI, the pool and the examples may import. */
const PUBLIC = ["src/index\\.ts$", "src/node\\.ts$", "src/browser\\.ts$", "src/browser-check\\.ts$", "src/targets/registry\\.ts$", "src/targets/[^/]+/index\\.ts$", "src/runtime/[^/]+/index\\.ts$", "src/harness/index\\.ts$"];

const folderRule = ([from, allowed]) => ({
  name: `layer ${from}`,
  comment: `${from} may import only ${allowed.join(", ") || "nothing else under src/"}`,
  severity: "error",
  from: { path: `^(${from})/` },
  to: { path: "^src/", pathNot: ["^$1/", ...allowed.map((a) => `^${a}/`)] },
});

module.exports = {
  forbidden: [
    ...Object.entries(LAYERS).map(folderRule),
    {
      name: "targets registry",
      comment: "src/targets/registry.ts names each package's index, nothing else",
      severity: "error",
      from: { path: "^src/targets/registry\\.ts$" },
      to: { path: "^src/", pathNot: ["^src/core/", "^src/targets/[^/]+/index\\.ts$"] },
    },
    {
      name: "entry points use the public API",
      comment: "the CLI and the harness build on public entry points (and their own files)",
      severity: "error",
      from: { path: "^src/(cli|harness)/" },
      to: { path: "^src/", pathNot: ["^src/$1/", "^src/api/", ...PUBLIC] },
    },
    {
      name: "the pool is the Node half of the API",
      comment: "src/pool (loomc/node) runs compile jobs through the API in workers",
      severity: "error",
      from: { path: "^src/pool/" },
      to: { path: "^src/", pathNot: ["^src/pool/", "^src/api/", "^src/core/", ...PUBLIC] },
    },
    {
      name: "cli uses the public API",
      severity: "error",
      from: { path: "^src/cli/" },
      to: { path: "^src/api/" },
    },
    {
      name: "only entry points import api",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/api/", "^src/(index|node|browser|browser-check)\\.ts$", "^src/(cli|pool|harness)/"] },
      to: { path: "^src/api/" },
    },
    {
      name: "examples use the public API",
      severity: "error",
      from: { path: "^examples/" },
      to: { path: "^src/", pathNot: PUBLIC },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)/" },
    tsPreCompilationDeps: true,
  },
};
