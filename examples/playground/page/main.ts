/**
 * The playground page: an editor with the `.loom` grammar's highlighting and inline diagnostics,
 * a target picker, the emitted module beside the source, the evaluated launch, and a WebGPU run
 * checked against the reference interpreter, with timings as a small chart. Compilation runs in
 * a Web Worker (worker.ts → compile.ts); WebGPU runs here, through loomc/runtime/webgpu.
 */
import * as webgpu from "loomc/runtime/webgpu";
import { highlightTokens, scopeClass } from "../highlight.js";
import type { CompileResponse, PlainDiagnostic, RunResponse, TargetName, TimeResponse, WorkerRequest, WorkerResponse } from "../protocol.js";

interface SuiteFile {
  readonly file: string;
  readonly symbol: string;
  readonly text: string;
}

/** Workloads and sizes that make each suite kernel's generated inputs sensible. */
const DEFAULTS: Readonly<Record<string, { workload: string; sizes: string }>> = {
  matmul16: { workload: "33,40", sizes: "k=48" },
  transpose_tile: { workload: "31,47", sizes: "" },
  row_softmax: { workload: "7", sizes: "cols=301" },
  // N a multiple of 4 and K of 8, as the kernel's `where` requires.
  matmul_tiled: { workload: "33,40", sizes: "k=48" },
  transpose32: { workload: "31,47", sizes: "" },
  row_softmax4: { workload: "7", sizes: "cols=300" },
};

const $ = <T extends HTMLElement>(id: string): T => {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page lacks #${id}`);
  return el as T;
};
const editor = $<HTMLTextAreaElement>("editor");
const highlight = $<HTMLPreElement>("highlight");
const targetSelect = $<HTMLSelectElement>("target");
const kernelSelect = $<HTMLSelectElement>("kernel");
const exampleSelect = $<HTMLSelectElement>("example");
const workloadInput = $<HTMLInputElement>("workload");
const sizesInput = $<HTMLInputElement>("sizes");

// A strict page must never try to evaluate strings: report it loudly if anything does.
document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline code"}`));

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
let nextId = 1;
const pending = new Map<number, (r: WorkerResponse) => void>();
worker.onmessage = (e: MessageEvent<WorkerResponse>) => {
  const resolve = pending.get(e.data.id);
  pending.delete(e.data.id);
  resolve?.(e.data);
};
worker.onerror = (e) => console.error(`compile worker: ${e.message}`);

type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

function ask<R extends WorkerResponse>(request: WithoutId<Extract<WorkerRequest, { id: number }>>): Promise<R> {
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, (r) => resolve(r as R));
    worker.postMessage({ ...request, id });
  });
}

const escapeHtml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** UTF-16 offset of a 1-based line and code-point column. */
function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf("\n", at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  let col = 1;
  while (col < column && at < text.length && text[at] !== "\n") {
    const c = text.charCodeAt(at);
    at += c >= 0xd800 && c <= 0xdbff ? 2 : 1;
    col++;
  }
  return at;
}

let diagnostics: readonly PlainDiagnostic[] = [];

/** The grammar's tokens as spans, with each error's range underlined. */
function renderHighlight(): void {
  const text = editor.value;
  const ranges = diagnostics
    .filter((d) => d.line !== undefined && (d.severity === "error" || d.severity === "warning"))
    .map((d) => {
      const start = offsetOf(text, d.line!, d.column ?? 1);
      let end = d.endLine !== undefined ? offsetOf(text, d.endLine, d.endColumn ?? (d.column ?? 1) + 1) : start + 1;
      if (end <= start) end = Math.min(text.length, start + 1);
      return { start, end, title: `${d.code}: ${d.message}` };
    });
  const cuts = new Set<number>([0, text.length]);
  for (const t of highlightTokens(text)) cuts.add(t.start).add(t.end);
  for (const r of ranges) cuts.add(r.start).add(r.end);
  const points = [...cuts].filter((p) => p <= text.length).sort((a, b) => a - b);
  const tokens = highlightTokens(text);
  let ti = 0;
  let html = "";
  for (let i = 0; i + 1 < points.length; i++) {
    const s = points[i]!, e = points[i + 1]!;
    while (ti < tokens.length && tokens[ti]!.end <= s) ti++;
    const scope = tokens[ti] && tokens[ti]!.start <= s ? tokens[ti]!.scope : undefined;
    const diag = ranges.find((r) => r.start <= s && e <= r.end);
    const classes = [scope ? scopeClass(scope) : "", diag ? "diag" : ""].filter(Boolean).join(" ");
    const body = escapeHtml(text.slice(s, e));
    html += classes ? `<span class="${classes}"${diag ? ` title="${escapeHtml(diag.title)}"` : ""}>${body}</span>` : body;
  }
  highlight.innerHTML = `${html}\n`;
  highlight.scrollTop = editor.scrollTop;
  highlight.scrollLeft = editor.scrollLeft;
}

function renderDiagnostics(list: readonly PlainDiagnostic[]): void {
  const ul = $("diagnostics");
  ul.innerHTML = list
    .map((d) => `<li class="${escapeHtml(d.severity)}">${d.line !== undefined ? `${d.line}:${d.column ?? 1}: ` : ""}${escapeHtml(d.severity)}[${escapeHtml(d.code)}]: ${escapeHtml(d.message)}${d.help ? ` (help: ${escapeHtml(d.help)})` : ""}</li>`)
    .join("");
}

const parseList = (s: string): number[] => s.split(/[\s,]+/).filter(Boolean).map(Number);
function parseSizes(s: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of s.split(/[\s,]+/).filter(Boolean)) {
    const [name, value] = part.split("=");
    if (name && value !== undefined && Number.isFinite(Number(value))) out[name] = Number(value);
  }
  return out;
}

const OUTPUT_TITLES: Record<TargetName, string> = { wgsl: "WGSL", spirv: "SPIR-V (disassembly)", ptx: "PTX", amdgpu: "AMDGPU code object (listing)" };

let latestCompile = 0;
let lastCompile: CompileResponse | undefined;

async function compileNow(): Promise<CompileResponse> {
  const id = ++latestCompile;
  const target = targetSelect.value as TargetName;
  $("compile-status").textContent = "compiling…";
  const r = await ask<CompileResponse>({ kind: "compile", text: editor.value, target, ...(kernelSelect.value ? { kernel: kernelSelect.value } : {}), workload: parseList(workloadInput.value) });
  if (id !== latestCompile) return r; // a newer edit is on its way
  lastCompile = r;
  diagnostics = r.diagnostics;
  renderDiagnostics(r.diagnostics);
  renderHighlight();
  const errors = r.diagnostics.filter((d) => d.severity === "error").length;
  $("compile-status").textContent = r.ok ? `compiled in ${r.compileMs.toFixed(2)} ms` : `${errors} error(s)`;
  $("compile-status").className = r.ok ? "muted pass" : "muted fail";
  if (r.kernels.join() !== [...kernelSelect.options].map((o) => o.value).join()) {
    kernelSelect.innerHTML = r.kernels.map((k) => `<option>${escapeHtml(k)}</option>`).join("");
    if (r.kernel) kernelSelect.value = r.kernel;
  }
  $("output-title").textContent = OUTPUT_TITLES[target];
  $("output").textContent = r.output ?? (r.ok ? "" : "(no module: see the diagnostics)");
  $("launch").textContent = r.launch
    ? `launch for workload [${workloadInput.value}]: ${r.launch.workgroupCount.join("×")} workgroups of ${r.launch.workgroupSize.join("×")} invocations, ${r.launch.workgroupStorageBytes} bytes of workgroup storage`
    : r.launchError
      ? `launch: ${r.launchError}`
      : "";
  return r;
}

let timer: ReturnType<typeof setTimeout> | undefined;
function scheduleCompile(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(() => void compileNow(), 120);
}

editor.addEventListener("input", () => {
  renderHighlight();
  scheduleCompile();
});
editor.addEventListener("scroll", () => {
  highlight.scrollTop = editor.scrollTop;
  highlight.scrollLeft = editor.scrollLeft;
});
editor.addEventListener("keydown", (e) => {
  if (e.key !== "Tab") return;
  e.preventDefault();
  editor.setRangeText("  ", editor.selectionStart, editor.selectionEnd, "end");
  editor.dispatchEvent(new Event("input"));
});
for (const el of [targetSelect, kernelSelect, workloadInput]) el.addEventListener("change", () => void compileNow());

// ---- WebGPU ----------------------------------------------------------------------------

let runtime: Promise<webgpu.WebGpuRuntime | string> | undefined;
function gpuRuntime(): Promise<webgpu.WebGpuRuntime | string> {
  return (runtime ??= webgpu.WebGpuRuntime.create().then(
    (rt) => {
      const facts = rt.profileFacts();
      worker.postMessage({ kind: "adapter", facts: { features: facts.features, limits: facts.limits } } satisfies WorkerRequest);
      $("adapter").textContent = `WebGPU: ${facts.adapter.description || facts.adapter.vendor || "adapter"}`;
      return rt;
    },
    (e: Error) => {
      $("adapter").textContent = `WebGPU unavailable: ${e.message}`;
      return e.message;
    },
  ));
}

interface RunOutcome {
  readonly passed: boolean;
  readonly kernel: string;
  readonly checks: readonly { name: string; count: number; mismatches: number; maxError: number }[];
  readonly wallMs: readonly number[];
  readonly gpuMs: readonly (number | undefined)[];
  readonly error?: string;
}

function compare(type: string, got: ArrayBuffer, want: ArrayBuffer): { count: number; mismatches: number; maxError: number } {
  if (type !== "f32") {
    const g = new Int32Array(got), w = new Int32Array(want);
    let mismatches = 0;
    for (let i = 0; i < w.length; i++) if (g[i] !== w[i]) mismatches++;
    return { count: w.length, mismatches, maxError: mismatches ? NaN : 0 };
  }
  const g = new Float32Array(got), w = new Float32Array(want);
  // Normwise: within 64 ε of the buffer's largest |value| (sums and dot products may round in any order), plus 1e-6.
  let scale = 0;
  for (const v of w) if (Number.isFinite(v)) scale = Math.max(scale, Math.abs(v));
  const allowed = 64 * 2 ** -23 * scale + 1e-6;
  let mismatches = 0, maxError = 0;
  for (let i = 0; i < w.length; i++) {
    const a = g[i]!, b = w[i]!;
    if (Number.isNaN(b) ? !Number.isNaN(a) : !(Math.abs(a - b) <= allowed)) mismatches++;
    if (!Number.isNaN(b)) maxError = Math.max(maxError, Math.abs(a - b));
  }
  return { count: w.length, mismatches, maxError };
}

function renderChart(wallMs: readonly number[], gpuMs: readonly (number | undefined)[]): void {
  const max = Math.max(...wallMs, ...gpuMs.map((g) => g ?? 0), 1e-3);
  const w = 16, h = 90;
  const bars = wallMs
    .map((ms, i) => {
      const g = gpuMs[i];
      const wall = `<rect x="${i * w * 2 + 30}" y="${h - (ms / max) * h}" width="${w - 2}" height="${(ms / max) * h}" fill="#7aa6da"><title>dispatch ${i + 1}: ${ms.toFixed(3)} ms wall</title></rect>`;
      const gpu = g === undefined ? "" : `<rect x="${i * w * 2 + 30 + w}" y="${h - (g / max) * h}" width="${w - 2}" height="${(g / max) * h}" fill="#e78c45"><title>dispatch ${i + 1}: ${g.toFixed(3)} ms GPU</title></rect>`;
      return wall + gpu;
    })
    .join("");
  $("chart").innerHTML = `<svg width="${wallMs.length * w * 2 + 40}" height="${h + 30}" role="img" aria-label="dispatch timings">
    <text x="0" y="10" font-size="10">${max.toFixed(2)} ms</text><line x1="28" y1="${h}" x2="${wallMs.length * w * 2 + 36}" y2="${h}" stroke="#999"/>
    ${bars}<text x="30" y="${h + 14}" font-size="10" fill="#7aa6da">wall (submit → done)</text><text x="170" y="${h + 14}" font-size="10" fill="#e78c45">GPU (timestamps)</text></svg>`;
}

let lastRun: RunOutcome | undefined;

async function runNow(): Promise<RunOutcome> {
  const status = $("run-status");
  const fail = (kernel: string, error: string): RunOutcome => {
    status.innerHTML = `<span class="fail">not run</span>: ${escapeHtml(error)}`;
    return (lastRun = { passed: false, kernel, checks: [], wallMs: [], gpuMs: [], error });
  };
  status.textContent = "preparing inputs and the interpreter's reference…";
  const rt = await gpuRuntime();
  if (typeof rt === "string") return fail(kernelSelect.value, `WebGPU is not available here (${rt})`);
  const prepared = await ask<RunResponse>({ kind: "prepare-run", text: editor.value, ...(kernelSelect.value ? { kernel: kernelSelect.value } : {}), workload: parseList(workloadInput.value), sizes: parseSizes(sizesInput.value), seed: 1 });
  if (!prepared.ok || !prepared.wgsl || !prepared.record || !prepared.launch || !prepared.args || !prepared.buffers || !prepared.expected) return fail(prepared.kernel ?? "", prepared.error ?? "the kernel does not compile to WGSL");
  status.textContent = `running @${prepared.kernel} on WebGPU…`;
  const record = webgpu.parseExecutableInterface(prepared.record);
  const kernel = await rt.createKernel(prepared.wgsl, record, record.kernels.find((k) => k.symbol === prepared.kernel)?.entryName);
  const buffers = prepared.buffers.map((b) => {
    const buffer = rt.createBuffer(b.data.byteLength, { label: b.name });
    buffer.upload(new Uint8Array(b.data));
    return buffer;
  });
  try {
    const args = prepared.args.map((a) => ("buffer" in a ? kernel.bufferArgument(buffers[a.buffer]!) : a.scalar));
    const count = prepared.launch.workgroupCount as [number, number, number];
    const first = await rt.dispatch(kernel, { workgroupCount: count, args, buffers });
    const checks = await Promise.all(
      prepared.buffers.map(async (b, i) => ({ name: b.name, ...compare(b.type, (await buffers[i]!.download()).slice().buffer as ArrayBuffer, prepared.expected![i]!) })),
    );
    const wallMs: number[] = [];
    const gpuMs: (number | undefined)[] = [];
    for (let i = 0; i < 10 && first.dispatched; i++) {
      const started = performance.now();
      const r = await rt.dispatch(kernel, { workgroupCount: count, args, buffers, timestamps: true });
      wallMs.push(performance.now() - started);
      gpuMs.push(r.gpuNs === undefined ? undefined : r.gpuNs / 1e6);
    }
    const passed = checks.every((c) => c.mismatches === 0);
    status.innerHTML =
      `<span class="${passed ? "pass" : "fail"}">${passed ? "PASS" : "FAIL"}</span> @${escapeHtml(prepared.kernel!)} on WebGPU vs the reference interpreter (${prepared.interpreterMs!.toFixed(1)} ms on the CPU):\n` +
      checks.map((c) => `  ${c.name}: ${c.count} elements, ${c.mismatches} differ, max error ${c.maxError}`).join("\n");
    renderChart(wallMs, gpuMs);
    return (lastRun = { passed, kernel: prepared.kernel!, checks, wallMs, gpuMs });
  } finally {
    for (const b of buffers) b.destroy();
    kernel.destroy();
  }
}

// ---- examples and the in-page compile benchmark ---------------------------------------

let suite: readonly SuiteFile[] = [];

function loadExample(symbol: string): void {
  const f = suite.find((s) => s.symbol === symbol);
  if (!f) return;
  editor.value = f.text;
  kernelSelect.innerHTML = "";
  const d = DEFAULTS[symbol];
  workloadInput.value = d?.workload ?? "1009";
  sizesInput.value = d?.sizes ?? "";
  renderHighlight();
}

/** The defaults: a warm-up of all kernels in turn (≥ 3 s, until it stops getting faster), then 101 rounds (≈ 1 s for the suite). */
async function timeSuiteCompiles(target: TargetName = "wgsl", warmupMs = 3000, repeats = 101): Promise<TimeResponse> {
  const r = await ask<TimeResponse>({ kind: "time-compiles", kernels: suite, target, warmupMs, repeats });
  const ms = (x: number): string => x.toFixed(3);
  $("compile-times").innerHTML =
    `<caption>warm-up ${(r.warmupTookMs / 1000).toFixed(1)} s, ${r.times[0]?.samplesMs.length ?? 0} samples per kernel, clock step ${(r.clockResolutionMs * 1000).toFixed(1)} µs, machine probe ${ms(r.probe.p50Ms)} ms (min ${ms(r.probe.minMs)})</caption>` +
    `<tr><th>kernel (${target})</th><th>p50 ms</th><th>p90 ms</th><th>min ms</th></tr>` +
    r.times.map((t) => `<tr><td>${escapeHtml(t.symbol)}</td>${t.error ? `<td colspan="3">${escapeHtml(t.error)}</td>` : `<td>${ms(t.p50Ms)}</td><td>${ms(t.p90Ms)}</td><td>${ms(t.minMs)}</td>`}</tr>`).join("");
  return r;
}

$("run").addEventListener("click", () => void runNow().catch((e: Error) => console.error(`run failed: ${e.message}`)));
$("time").addEventListener("click", () => void timeSuiteCompiles());
exampleSelect.addEventListener("change", () => {
  loadExample(exampleSelect.value);
  void compileNow();
});

async function start(): Promise<void> {
  suite = (await (await fetch("kernels.json")).json()) as SuiteFile[];
  exampleSelect.innerHTML = suite.map((s) => `<option value="${escapeHtml(s.symbol)}">${escapeHtml(s.file)}</option>`).join("");
  exampleSelect.value = "saxpy";
  loadExample("saxpy");
  await gpuRuntime();
  await compileNow();
}

/** What the tests (and a curious user in the console) drive. */
const api = { ready: start(), compileNow, runNow, timeSuiteCompiles, lastCompile: () => lastCompile, lastRun: () => lastRun };
(window as unknown as { loomPlayground: typeof api }).loomPlayground = api;
api.ready.catch((e: Error) => console.error(`playground failed to start: ${e.message}`));
