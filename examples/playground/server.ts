/**
 * `npm run playground`: a tiny static server on 127.0.0.1 for the playground page. At start it
 * bundles the page and its worker with esbuild (loomc/browser and all) into memory, then serves
 * them with the page, its stylesheet and the suite kernels under a strict Content-Security-Policy
 * (no inline script, no eval), cross-origin isolated: the page must work the way a locked-down
 * site would host it.
 *
 *   node dist/examples/playground/server.js [--port 8737]
 */
import { createServer, type Server } from "node:http";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/** The repository root, from src (examples/playground) or from dist (dist/examples/playground). */
const ROOT = (() => {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.includes(`${join("dist", "examples")}`) ? resolve(here, "../../..") : resolve(here, "../..");
})();
const PAGE_DIR = join(ROOT, "examples", "playground");

export const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; worker-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/**
 * Cross-origin isolation (every resource is same-origin, so nothing else changes): the page and
 * its worker get a 5 µs `performance.now()` instead of 0.1 ms, fine enough to time one compile.
 */
export const CROSS_ORIGIN_ISOLATION = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp", "cross-origin-resource-policy": "same-origin" } as const;

export interface Playground {
  readonly url: string;
  /** Bundle sizes in bytes (minified ESM). */
  readonly bundles: Readonly<Record<string, number>>;
  close(): Promise<void>;
}

async function bundles(): Promise<Map<string, Uint8Array>> {
  const out = await build({
    entryPoints: { main: join(PAGE_DIR, "page", "main.ts"), worker: join(PAGE_DIR, "page", "worker.ts") },
    tsconfig: join(PAGE_DIR, "page", "tsconfig.json"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    outdir: "/virtual",
    write: false,
    logLevel: "silent",
  });
  if (out.errors.length > 0) throw new Error(`playground bundle: ${out.errors.map((e) => e.text).join("; ")}`);
  return new Map(out.outputFiles.map((f) => [`/${f.path.split("/").pop()!}`, f.contents]));
}

function suiteKernels(): string {
  const dir = join(ROOT, "examples", "kernels");
  const files = readdirSync(dir).filter((f) => f.endsWith(".loom")).sort();
  return JSON.stringify(
    files.map((file) => {
      const text = readFileSync(join(dir, file), "utf8");
      const symbol = /kernel\.def[^@]*@([A-Za-z0-9_$.-]+)/.exec(text)?.[1] ?? file.replace(/\.loom$/, "");
      return { file, symbol, text };
    }),
  );
}

const TYPES: Readonly<Record<string, string>> = { ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".json": "application/json" };

/** Bundles the page and listens on 127.0.0.1 (port 0: any free port). */
export async function startPlayground(port = 0): Promise<Playground> {
  const files = await bundles();
  const sizes = Object.fromEntries([...files].map(([path, bytes]) => [path.slice(1), bytes.length]));
  files.set("/", readFileSync(join(PAGE_DIR, "index.html")));
  files.set("/style.css", readFileSync(join(PAGE_DIR, "style.css")));
  files.set("/kernels.json", new TextEncoder().encode(suiteKernels()));
  files.set("/loom.tmLanguage.json", readFileSync(join(ROOT, "editors", "loom.tmLanguage.json")));
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const body = files.get(path === "/index.html" ? "/" : path);
    if (req.method !== "GET" || !body) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
      return;
    }
    const ext = path === "/" ? ".html" : path.slice(path.lastIndexOf("."));
    res.writeHead(200, { "content-type": TYPES[ext] ?? "application/octet-stream", "content-security-policy": CONTENT_SECURITY_POLICY, ...CROSS_ORIGIN_ISOLATION, "cache-control": "no-store", "x-content-type-options": "nosniff" });
    res.end(body);
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", ok);
  });
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${bound}/`,
    bundles: sizes,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--port");
  const port = at > 0 ? Number(process.argv[at + 1]) : 8737;
  const p = await startPlayground(port);
  console.log(`loom playground: ${p.url}  (bundles: ${Object.entries(p.bundles).map(([n, b]) => `${n} ${(b / 1024).toFixed(0)} KB`).join(", ")}; Ctrl-C stops)`);
}
