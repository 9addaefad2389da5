/**
 * Streams, events and CUDA graphs. Streams are created with CU_STREAM_DEFAULT flags (ordered
 * with the legacy default stream, which the synchronous copies use); graphs are recorded by
 * stream capture on a non-blocking stream of their own, then instantiated once and replayed
 * with cuGraphLaunch: the way to launch the same kernels with the same arguments many times
 * at a fraction of the per-launch host cost.
 */
import { LoomError } from "../../core/errors.js";
import { EVENT_DEFAULT, STREAM_CAPTURE_MODE_THREAD_LOCAL, STREAM_DEFAULT, STREAM_NON_BLOCKING } from "./constants.js";
import { check, enter, makeCurrent, type CudaContext } from "./context.js";

/** A driver object owned by a runtime. */
export abstract class Owned {
  protected released = false;
  constructor(
    /** @internal */ readonly ctx: CudaContext,
    private readonly onDestroy: (o: Owned) => void,
  ) {}
  get isDestroyed(): boolean {
    return this.released;
  }
  /** @internal */
  requireUsable(what: string): void {
    if (this.released) throw new LoomError("failed-precondition", `${what}: the ${this.constructor.name} was destroyed`);
    enter(this.ctx, what);
  }
  /** Frees the driver object; called at most once, by `destroy()`, while the context is alive. */
  protected abstract release(): void;
  /** Releases the driver object. Idempotent. */
  destroy(): void {
    if (this.released) return;
    this.released = true;
    this.onDestroy(this);
    if (this.ctx.state !== "destroyed") {
      makeCurrent(this.ctx);
      this.release();
    }
  }
}

/** A CUDA stream: an ordered queue of launches and copies; `destroy()` releases it. */
export class CudaStream extends Owned {
  /** @internal */ readonly handle: bigint;

  /** @internal */
  constructor(ctx: CudaContext, onDestroy: (o: Owned) => void, nonBlocking = false) {
    super(ctx, onDestroy);
    enter(ctx, "createStream");
    const out = new BigUint64Array(1);
    check(ctx, ctx.lib.cu.cuStreamCreate(out, nonBlocking ? STREAM_NON_BLOCKING : STREAM_DEFAULT), "cuStreamCreate");
    this.handle = out[0] ?? 0n;
  }

  /** Waits for everything enqueued on the stream; a kernel fault surfaces here as a CudaError. */
  synchronize(): void {
    this.requireUsable("stream.synchronize");
    check(this.ctx, this.ctx.lib.cu.cuStreamSynchronize(this.handle), "cuStreamSynchronize");
  }

  /** Destroys the driver stream. */
  protected release(): void {
    this.ctx.lib.cu.cuStreamDestroy_v2(this.handle);
  }
}

/** A CUDA event recorded on a stream, for ordering and timing (milliseconds between events). */
export class CudaEvent extends Owned {
  /** @internal */ readonly handle: bigint;

  /** @internal */
  constructor(ctx: CudaContext, onDestroy: (o: Owned) => void) {
    super(ctx, onDestroy);
    enter(ctx, "createEvent");
    const out = new BigUint64Array(1);
    check(ctx, ctx.lib.cu.cuEventCreate(out, EVENT_DEFAULT), "cuEventCreate");
    this.handle = out[0] ?? 0n;
  }

  /** Records the event on `stream` (default: the runtime's). */
  record(stream?: CudaStream): void {
    this.requireUsable("event.record");
    check(this.ctx, this.ctx.lib.cu.cuEventRecord(this.handle, stream?.handle ?? this.ctx.stream), "cuEventRecord");
  }

  /** Blocks until the work recorded before this event has finished. */
  synchronize(): void {
    this.requireUsable("event.synchronize");
    check(this.ctx, this.ctx.lib.cu.cuEventSynchronize(this.handle), "cuEventSynchronize");
  }

  /** Milliseconds from `start` to this event (both recorded; waits for this one). */
  elapsedMsSince(start: CudaEvent): number {
    this.requireUsable("event.elapsedMsSince");
    if (!(start instanceof CudaEvent) || start.ctx !== this.ctx) throw new LoomError("invalid-argument", "elapsedMsSince: start must be a CudaEvent of the same runtime");
    start.requireUsable("event.elapsedMsSince");
    this.synchronize();
    const ms = new Float32Array(1);
    check(this.ctx, this.ctx.lib.cu.cuEventElapsedTime(ms, start.handle, this.handle), "cuEventElapsedTime");
    return ms[0] ?? 0;
  }

  /** Destroys the driver event. */
  protected release(): void {
    this.ctx.lib.cu.cuEventDestroy_v2(this.handle);
  }
}

/** A captured, instantiated CUDA graph of launches that can be replayed on a stream. */
export class CudaGraph extends Owned {
  /** @internal */ readonly exec: bigint;

  /**
   * Captures what `record` enqueues on the capture stream it is given into a graph and
   * instantiates it. A failure inside `record` ends the capture and rethrows.
   * @internal
   */
  constructor(ctx: CudaContext, onDestroy: (o: Owned) => void, captureStream: CudaStream, record: (stream: CudaStream) => void) {
    super(ctx, onDestroy);
    enter(ctx, "captureGraph");
    const { cu } = ctx.lib;
    check(ctx, cu.cuStreamBeginCapture_v2(captureStream.handle, STREAM_CAPTURE_MODE_THREAD_LOCAL), "cuStreamBeginCapture");
    const graph = new BigUint64Array(1);
    let failure: unknown;
    try {
      record(captureStream);
    } catch (e) {
      failure = e;
    }
    const ended = cu.cuStreamEndCapture(captureStream.handle, graph);
    const g = graph[0] ?? 0n;
    try {
      if (failure !== undefined) throw failure;
      check(ctx, ended, "cuStreamEndCapture", ended === 901 ? "an operation during capture was not capturable (a synchronous copy, or work on another stream)" : "");
      const exec = new BigUint64Array(1);
      check(ctx, cu.cuGraphInstantiateWithFlags(exec, g, 0n), "cuGraphInstantiate");
      this.exec = exec[0] ?? 0n;
    } finally {
      if (g !== 0n) cu.cuGraphDestroy(g);
    }
  }

  /** Enqueues one replay of the graph on `stream` (default: the runtime's). */
  launch(stream?: CudaStream): void {
    this.requireUsable("graph.launch");
    check(this.ctx, this.ctx.lib.cu.cuGraphLaunch(this.exec, stream?.handle ?? this.ctx.stream), "cuGraphLaunch");
  }

  /** Destroys the graph's executable instance. */
  protected release(): void {
    this.ctx.lib.cu.cuGraphExecDestroy(this.exec);
  }
}
