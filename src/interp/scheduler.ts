/**
 * Runs the invocations of one workgroup.
 *
 * Kernels without barriers or collectives run each invocation to completion, in flat-id
 * order. Otherwise each invocation is a generator that runs until it reaches a barrier or
 * collective (a `SyncRequest`) or finishes. When every invocation of a subgroup waits at
 * the same subgroup-scope op, or every invocation of the workgroup waits at the same
 * workgroup-scope op, the op is resolved for all of them at once and they resume, one
 * after another, in flat-id order. When nothing can proceed and not every invocation has
 * finished, some invocation skipped a barrier or collective its scope reached: that is
 * undefined behaviour (language.md §4) and reported as `divergence`.
 */
import { formatSpan, InterpretError } from "./errors.js";
import type { CompiledRegion } from "./compiler.js";
import { invocationId, type DispatchState, type Frame, type Gen, type Invocation, type SyncRequest, type Val, type WorkgroupState } from "./state.js";

interface Task {
  readonly inv: Invocation;
  readonly gen: Gen<readonly Val[]>;
  waiting: SyncRequest | undefined;
  done: boolean;
}

export function runWorkgroup(body: CompiledRegion, slotCount: number, args: readonly Val[], d: DispatchState, id: readonly [number, number, number]): void {
  const workgroup: WorkgroupState = { id, allocas: new Map() };
  d.scratchBytes = 0; // the scratch limit is per workgroup: earlier workgroups' storage is dead
  const [sx, sy, sz] = d.workgroupSize;
  const frames: Frame[] = [];
  for (let z = 0; z < sz; z++) {
    for (let y = 0; y < sy; y++) {
      for (let x = 0; x < sx; x++) {
        const inv: Invocation = { local: [x, y, z], flat: x + sx * (y + sy * z), workgroup, dispatch: d };
        const slots = new Array<Val>(slotCount);
        body.argSlots.forEach((s, i) => { slots[s] = args[i]!; });
        frames.push({ slots, inv, depth: 0 });
      }
    }
  }
  if (!body.sync) {
    for (const f of frames) body.run(f);
    return;
  }
  const tasks: Task[] = frames.map((f) => ({ inv: f.inv, gen: body.gen(f), waiting: undefined, done: false }));
  for (const t of tasks) advance(t, undefined);
  const subgroups: Task[][] = [];
  for (const t of tasks) (subgroups[Math.floor(t.inv.flat / d.subgroupSize)] ??= []).push(t);

  for (;;) {
    let progressed = false;
    for (const group of subgroups) {
      if (atSameOp(group, "subgroup")) {
        resolve(group);
        progressed = true;
      }
    }
    if (progressed) continue;
    if (tasks.every((t) => t.done)) return;
    if (atSameOp(tasks, "workgroup")) {
      resolve(tasks);
      continue;
    }
    throw divergence(tasks, subgroups, d.subgroupSize);
  }
}

function advance(t: Task, input: readonly Val[] | undefined): void {
  const r = t.gen.next(input);
  if (r.done) {
    t.done = true;
    t.waiting = undefined;
  } else t.waiting = r.value;
}

function atSameOp(group: readonly Task[], scope: SyncRequest["scope"]): boolean {
  const op = group[0]?.waiting?.op;
  return op !== undefined && group.every((t) => t.waiting?.scope === scope && t.waiting.op === op);
}

/** Resolves the op every task of `group` waits at, then resumes each task in order. */
function resolve(group: readonly Task[]): void {
  const requests = group.map((t) => t.waiting!);
  const results = requests[0]!.resolve(requests, group.map((t) => t.inv));
  group.forEach((t, i) => advance(t, results?.[i]));
}

function divergence(tasks: readonly Task[], subgroups: readonly Task[][], sg: number): InterpretError {
  const first = tasks.find((t) => t.waiting)!;
  const req = first.waiting!;
  const scope = req.scope === "subgroup" ? subgroups[Math.floor(first.inv.flat / sg)]! : tasks;
  const here = scope.filter((t) => t.waiting?.op === req.op).length;
  const other = scope.find((t) => t.waiting?.op !== req.op);
  if (!other) return new InterpretError("divergence", req.op.name, req.op.span, invocationId(first.inv), `the invocations of the ${req.scope} cannot all proceed`);
  const otherAt = other.done ? "finished without reaching it" : `waits at ${other.waiting!.op.name} (${formatSpan(other.waiting!.op.span)})`;
  const detail = `not reached by every invocation of its ${req.scope}: ${here} of ${scope.length} wait here, and work-item (${other.inv.local.join(", ")}) ${otherAt}`;
  return new InterpretError("divergence", req.op.name, req.op.span, invocationId(first.inv), detail);
}
