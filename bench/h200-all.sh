#!/usr/bin/env bash
# Everything bench/h200.ts and its anchors measure, plus the whole kernel suite's correctness
# through CUDA, Vulkan and WebGPU (Dawn), in one go on a machine with an NVIDIA GPU:
#
#   npm run build && bash bench/h200-all.sh [OUT_DIR]      # default h200-results/
#
# Needs Node 20 with dist/ and the runtime dependencies, python3 with torch and Triton (the
# anchors), a Vulkan loader, a C compiler and nvcc for the C baselines (LOOM_VULKAN_INCLUDE: a
# directory holding vulkan/vulkan_core.h when the system has no Vulkan headers), and npm
# `webgpu` for the Dawn half. Writes one JSON file per part and log.txt.
set -u
out=${1:-h200-results}
mkdir -p "$out"
log="$out/log.txt"
smi() { nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader >> "$log" 2>&1; }
step() { echo "== $(date -u +%T) $*" >> "$log"; }
smi
step anchors
python3 bench/h200-anchors.py > "$out/h200-anchors.json" 2>> "$log"
step "loom via CUDA, Vulkan, WebGPU"
node dist/bench/h200.js --webgpu --anchors "$out/h200-anchors.json" --out "$out/h200-loom.json" > /dev/null 2>> "$log"
step "suite through CUDA"
node dist/bench/cuda-suite.js --tests-only --out "$out/h200-cuda-suite.json" > /dev/null 2>> "$log"
step "suite through Vulkan"
node dist/bench/vulkan-suite.js --tests-only --warmup 0 --repeat 1 > "$out/h200-vulkan-suite.json" 2>> "$log"
step "suite through WebGPU"
node dist/bench/webgpu-suite.js --out "$out/h200-webgpu-suite.json" > /dev/null 2>> "$log"
step done
smi
