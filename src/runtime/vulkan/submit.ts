/**
 * Recording and submitting the runtime's one command buffer, shared by dispatches and staged
 * transfers. Every submission is waited for before the call returns, so the command buffer
 * and fence are free again whenever a caller gets here.
 */
import { LoomError } from "../../core/errors.js";
import { COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT, STYPE } from "./constants.js";
import type { DeviceContext } from "./context.js";
import type { NativeArena } from "./native-arena.js";
import { check, vkResultName } from "./vk-result.js";

/** Waits for a submitted batch, if any, so the command buffer, fence and its buffers are free. */
export function settle(ctx: DeviceContext): void {
  ctx.pending?.settle();
}

/** Resets and begins the context's command buffer for one submission; returns it. */
export function beginCommands(ctx: DeviceContext, arena: NativeArena): bigint {
  settle(ctx);
  ctx.recorded = undefined;
  const { vk } = ctx.lib;
  const cb = ctx.commandBuffer;
  check(vk.vkResetCommandBuffer(cb, 0), "vkResetCommandBuffer");
  check(
    vk.vkBeginCommandBuffer(cb, arena.struct("VkCommandBufferBeginInfo", { sType: STYPE.COMMAND_BUFFER_BEGIN_INFO, flags: COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT })),
    "vkBeginCommandBuffer",
  );
  return cb;
}

/**
 * Ends the command buffer, submits it and waits for the fence. A timeout or device loss marks
 * the context unusable (the work may still be running, so nothing it touches may be freed).
 */
export function submitAndWait(ctx: DeviceContext, arena: NativeArena, what: string): void {
  submitCommands(ctx, arena, what);
  waitForSubmission(ctx, arena, what);
}

/** Ends the command buffer and submits it with the context's fence (batch.ts waits later). */
export function submitCommands(ctx: DeviceContext, arena: NativeArena, what: string): void {
  const { vk } = ctx.lib;
  const cb = ctx.commandBuffer;
  check(vk.vkEndCommandBuffer(cb), "vkEndCommandBuffer");
  const fences = arena.handles([ctx.fence]);
  check(vk.vkResetFences(ctx.device, 1, fences), "vkResetFences");
  const submit = arena.struct("VkSubmitInfo", { sType: STYPE.SUBMIT_INFO, commandBufferCount: 1, pCommandBuffers: arena.handles([cb]) });
  check(vk.vkQueueSubmit(ctx.queue, 1, submit, ctx.fence), `vkQueueSubmit (${what})`);
}

/** Waits for the fence of the last submission; a timeout or device loss marks the context unusable. */
export function waitForSubmission(ctx: DeviceContext, arena: NativeArena, what: string): void {
  waitForFence(ctx, arena.handles([ctx.fence]), what);
}

/** Waits for the context's fence, given as a native array of one handle. */
export function waitForFence(ctx: DeviceContext, fences: bigint, what: string): void {
  const { vk } = ctx.lib;
  const waited = vk.vkWaitForFences(ctx.device, 1, fences, 1, BigInt(ctx.timeoutMs) * 1_000_000n);
  if (waited === 0) return;
  ctx.state = { lost: `${what} ended with ${vkResultName(waited)}` };
  if (waited === 2) {
    throw new LoomError("internal", `${what} did not finish within ${ctx.timeoutMs} ms (VK_TIMEOUT); the runtime is now unusable`);
  }
  check(waited, `vkWaitForFences (${what})`);
}
