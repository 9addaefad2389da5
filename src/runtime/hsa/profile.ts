/**
 * An HSA agent as a loom AMDGPU profile, in plain data (the shape of the AMDGPU target's
 * AmdgpuProfileOptions, which this runtime cannot import): the ISA name
 * "amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-" becomes { target: "gfx90a", sramecc: true, xnack: false }.
 */
import { LoomError } from "../../core/errors.js";

/** An HSA agent as `hsa_agent_get_info` describes it (a CPU or a GPU of the system). */
export interface HsaAgentInfo {
  readonly handle: bigint;
  readonly name: string;
  readonly vendor: string;
  /** HSA_DEVICE_TYPE_*: 0 CPU, 1 GPU, 2 DSP. */
  readonly deviceType: number;
  /** e.g. "amdgcn-amd-amdhsa--gfx1100" (GPU agents). */
  readonly isaName: string;
  readonly wavefrontSize: number;
  readonly workgroupMaxSize: number;
}

/** A GPU agent as plain AMDGPU profile options: pass it to `createAmdgpuProfile` (`loomc/target/amdgpu`). */
export interface AmdgpuProfileData {
  readonly identifier: string;
  readonly identity: {
    readonly target: string;
    readonly sramecc?: boolean;
    readonly xnack?: boolean;
    readonly wavefrontSize?: 32 | 64;
  };
}

/** Splits an HSA ISA name into processor and feature settings. */
export function parseIsaName(isa: string): { readonly processor: string; readonly sramecc?: boolean; readonly xnack?: boolean } {
  const [, processor, settings = ""] = /^amdgcn-amd-amdhsa--(gfx[0-9a-z-]+?)((?::[a-z]+[+-])*)$/.exec(isa) ?? [];
  if (processor === undefined) throw new LoomError("invalid-argument", `'${isa}' is not an AMDGPU HSA ISA name (amdgcn-amd-amdhsa--gfxNNN[:feature±])`);
  const features = new Map([...settings.matchAll(/:([a-z]+)([+-])/g)].map(([, name = "", sign]) => [name, sign === "+"]));
  const sramecc = features.get("sramecc"), xnack = features.get("xnack");
  return { processor, ...(sramecc !== undefined ? { sramecc } : {}), ...(xnack !== undefined ? { xnack } : {}) };
}

/** The AMDGPU profile options for a GPU agent (pass to createAmdgpuProfile). */
export function profileFromAgent(agent: HsaAgentInfo, identifier = `hsa-${agent.name}`): AmdgpuProfileData {
  if (agent.deviceType !== 1) throw new LoomError("invalid-argument", `agent '${agent.name}' is not a GPU (HSA device type ${agent.deviceType})`);
  const isa = parseIsaName(agent.isaName);
  const wave = agent.wavefrontSize === 32 || agent.wavefrontSize === 64 ? agent.wavefrontSize : undefined;
  return { identifier, identity: { target: isa.processor, ...(isa.sramecc !== undefined ? { sramecc: isa.sramecc } : {}), ...(isa.xnack !== undefined ? { xnack: isa.xnack } : {}), ...(wave ? { wavefrontSize: wave } : {}) } };
}
