#!/usr/bin/env bash
# One device lease in one go (the project's `device` tool: 15 minutes of
# GPU time in all, one command of at most 10). Prepare on the build machine:
#   bench/gpu/prepare.sh && python3 bench/gpu/tuning.py prepare --top 3
# then run, with carry ["bench/gpu/bundles"] and timeout_s 590:
#   bash bench/gpu/lease.sh
# Each part has its own deadline (seconds, the first argument of `part`),
# so that a slow part costs its own rows, not the next part's; the parts run
# in order of value: attention (issue 19), then the GEMMs, MoE and norms
# with their baselines, then a few bundles through Nautilus's own runtime
# (the C API), then the auto-scheduler's tuning mode (issue 20). What comes
# back under $OUT (at most 8 files): log.txt, attention.{md,jsonl},
# rest.{md,jsonl}, tuning.{md,jsonl}, tuning-report.md; the C API's table
# is in the log.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out="${OUT:-/tmp/nautilus-gpu}"
mkdir -p "$out"
source bench/gpu/lease_part.sh || exit 1

rm -f /tmp/capi.md /tmp/script.md # (a warm machine keeps an earlier run's)
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv 2>&1
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' 2>&1
  part 240 --only '^(attention(?!_unbound)|causal|gqa)' --out "$out/attention.md"
  part 160 --only '^(f16(?!_unbound)|bf16|moe|rmsnorm|softmax(?!_unbound))' --out "$out/rest.md"
  part 70 --only '^(f16_unbound_m_|(softmax|layernorm|attention|decode)_unbound_)' --out "$out/unbound.md"
  NAUTILUS_GPU_LAUNCHER=capi part 35 --no-baselines --out /tmp/capi.md \
    --only '^(f16_4096|bf16_ragged|attention_4k_d128|attention_decode_d128|moe_ragged|rmsnorm_4096)_sm_90'
  cat /tmp/capi.md 2>/dev/null
  part 110 --bundles bench/gpu/bundles/tuning --no-baselines --out "$out/tuning.md" \
    --only '^(f16_4096|f16_ragged|f16_splitk_128|attn_(prefill|decode)|softmax_rows|rmsnorm_rows)_'
  python3 bench/gpu/tuning.py report "$out/tuning.jsonl" --plan bench/gpu/bundles/tuning/tuning.plan \
    --out "$out/tuning-report.md"
  date -u
} 2>&1 | tee "$out/log.txt"
