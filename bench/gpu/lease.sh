#!/usr/bin/env bash
# One device lease in one go (the project's `device` tool: 15 minutes of
# GPU time in all, one command of at most 10). Prepare on the build machine:
#   bench/gpu/prepare.sh && python3 bench/gpu/tuning.py prepare --top 3
# then run, with carry ["bench/gpu/bundles"] and timeout_s 590:
#   bash bench/gpu/lease.sh
# Each part has its own deadline (seconds, the first argument of `part`;
# about 5.3 s a bundle with its baselines, 4.6 without), so that a slow part
# costs its own rows, not the next part's; they add up to 580 s at most, and the
# parts run in order of value: attention against SDPA (issue 19; the
# FlashAttention-3 options and 128-key blocks are lease_ab.sh's), the GEMMs
# and MoE with their baselines, the auto-scheduler's tuning mode (issue 20),
# a few bundles through Nautilus's own runtime (the C API), then softmax
# and layernorm compiled without their sizes. What comes back under $OUT
# (6 files; the device tool brings back at most 8): log.txt (with every
# table), attention.jsonl, rest.jsonl, tuning.jsonl, unbound.jsonl,
# tuning-report.md.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out="${OUT:-/tmp/nautilus-gpu}"
mkdir -p "$out"
source bench/gpu/lease_part.sh || exit 1

rm -f /tmp/capi.md /tmp/script.md # (a warm machine keeps an earlier run's)
{
  date -u
  bundles_commit
  timeout 20 nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv 2>&1
  timeout 20 python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1
  part 130 --only '^(attention(?!_unbound)|causal|gqa)(?!.*_(k128|producer|pingpong|overlap|fa3))' \
    --out "$out/attention.md"
  table "$out/attention.md"
  part 100 --only '^(f16(?!_unbound)|bf16|moe)' --out "$out/rest.md"
  table "$out/rest.md"
  part 160 --bundles bench/gpu/bundles/tuning --no-baselines --out "$out/tuning.md" \
    --only '^(f16_4096|f16_ragged|f16_splitk_128|attn_(prefill|long_keys|decode)|softmax_rows|rmsnorm_rows)_'
  table "$out/tuning.md"
  timeout 20 python3 bench/gpu/tuning.py report "$out/tuning.jsonl" \
    --plan bench/gpu/bundles/tuning/tuning.plan --out "$out/tuning-report.md"
  NAUTILUS_GPU_LAUNCHER=capi part 35 --no-baselines --out /tmp/capi.md \
    --only '^(f16_4096|bf16_ragged|attention_4k_d128|attention_decode_d128|moe_ragged|rmsnorm_4096)_sm_90'
  table /tmp/capi.md
  part 95 --only '^(softmax|layernorm)_unbound_' --out "$out/unbound.md"
  table "$out/unbound.md"
  date -u
} 2>&1 | tee "$out/log.txt"
