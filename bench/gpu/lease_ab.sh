#!/usr/bin/env bash
# A second, shorter lease (bench/gpu/lease.sh is the first): the questions
# the first run's results raised, each answered in the same run.
#  1. The C API's launches after the program keeps its workspaces and
#     tensor maps (runtime/WorkspacePool.h, CudaDevice's TensorMapSets),
#     beside the script's own launches of the same six bundles.
#  2. Flash kernels with blocks of 128 keys against the default's 64, and
#     FlashAttention-3's schedule options at 4k d128 again (producer,
#     overlap, fa3: 4-12% in the first run, within its peers' drift), with
#     their SDPA peers, at d64 and d128, causal and not.
#  3. The flash model's regret after its two fixes from the first run (a
#     warp's scheduler share, no overlap between warps): the tuning
#     mode's attention cases (prefill, long keys, decode).
#  4. Where the d128 flash kernel's time goes: Nsight Compute's scheduler
#     and warp-state sections of one launch (where ncu runs).
#  5. Since the thirty-second session: FlashAttention-3's structure with
#     128-key blocks (the producer giving its registers to the consumers),
#     the causal FA3 kernel now that ptxas keeps its wgmma pipeline
#     (0.89x FlashAttention-2 in the first run, serialised: C7513), and the
#     row streams against PyTorch.
#  6. Since the thirty-eighth session: the structure the GPU models choose
#     for softmax and layernorm against the others: since the
#     thirty-ninth, one program (the row stream, then Y swept over the
#     same rows, X read from DRAM once), against Y apart
#     (softmax_4096_unswept, two programs, X read twice) and every
#     reduction apart too (softmax_4096_apart, layernorm_4096_apart: three
#     programs).
#  7. Since the fortieth session: a gated MLP's gate and up projections as
#     sibling contractions (one program, X staged once a step: wgmma on
#     sm_90 since the forty-first session) against the projections apart
#     (mlp_*_sm_90 against mlp_*_apart_sm_90), and PyTorch's cuBLAS; since
#     the forty-second session a mixture of experts' too (sibling grouped
#     GEMMs: moe_mixtral_sm_90 and moe_ragged_sm_90 against their _apart).
#  6 also, since the forty-third session: few long rows the heuristics
#     split (layernorm_64x8192, rmsnorm_8x16384: Y apart) against the same
#     rows shared unsplit with Y swept (their _swept bundles: the
#     auto-scheduler's structure).
#  6 also, since the fifty-third session: softmax and layernorm compiled
#     without their sizes, the auto-scheduler's rows ranked over sample
#     shapes (Y apart, copies by the rows' length) against the
#     heuristics' (a row a thread, Y apart), at 4096 x 4096, 32 x 4096,
#     4096 x 128 and 1 x 131072 (their _unbound_ bundles).
#  3 also, since the forty-sixth session: the tuning mode's plans (nautc
#     tune --plan) of seven cases (34 bundles: three GEMMs, attention at
#     prefill and decoding, softmax's and rmsnorm's structures), whose rows
#     `bench/gpu/tuning.py import $OUT/tuning.jsonl --db ...` turns into
#     records and the GPU models' refit back on the build machine (with
#     the refit's regret, each case held out).
# Prepare with bench/gpu/prepare.sh and `bench/gpu/tuning.py prepare --top
# 3`; run with carry ["bench/gpu/bundles"] and timeout_s 590:
# `bash bench/gpu/lease_ab.sh`. The parts' deadlines (about 5.3 s a
# bundle with baselines, 4.6 without) add up to 575 s at most. Back under
# $OUT (7 files; the device tool brings back at most 8): log.txt (with
# every table), blocks.jsonl, norms.jsonl, mlp.jsonl, tuning.jsonl,
# tuning-report.md, ncu.txt.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out="${OUT:-/tmp/nautilus-gpu}"
mkdir -p "$out"
source bench/gpu/lease_part.sh || exit 1

six='^(f16_4096|bf16_ragged|attention_4k_d128|attention_decode_d128|moe_ragged|rmsnorm_4096)_sm_90'
blocks='^((attention_(1k|4k|16k)_d128|causal_(1k|4k)_d128|attention_(4k|16k)_d64|causal_4k_d64)(_k128)?|attention_4k_d128_(producer|overlap|fa3)|attention_(4k|16k)_d128_k128_(producer|pingpong|fa3)|causal_4k_d128_k128_pingpong|causal_4k_d128_fa3)_sm_90'
rm -f /tmp/capi.md /tmp/script.md # (a warm machine keeps an earlier run's)
{
  date -u
  bundles_commit
  timeout 20 nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>&1
  NAUTILUS_GPU_LAUNCHER=capi part 45 --no-baselines --only "$six" --out /tmp/capi.md
  table /tmp/capi.md
  part 30 --no-baselines --only "$six" --out /tmp/script.md
  table /tmp/script.md
  part 140 --only "$blocks" --out "$out/blocks.md"
  table "$out/blocks.md"
  # (Not the _unbound_ bundles: lease.sh runs those.)
  part 75 --only '^(rmsnorm|layernorm|softmax)(?!_unbound)' --out "$out/norms.md"
  table "$out/norms.md"
  part 45 --only '^(mlp_|moe_(mixtral|ragged)(_apart)?_sm)' --out "$out/mlp.md"
  table "$out/mlp.md"
  part 160 --bundles bench/gpu/bundles/tuning --no-baselines \
    --only '^(f16_4096|f16_ragged|f16_splitk_128|attn_(prefill|long_keys|decode)|softmax_rows|rmsnorm_rows)_' \
    --out "$out/tuning.md"
  table "$out/tuning.md"
  timeout 20 python3 bench/gpu/tuning.py report "$out/tuning.jsonl" \
    --plan bench/gpu/bundles/tuning/tuning.plan --out "$out/tuning-report.md"
  if command -v ncu >/dev/null && [ "${LEASE_SCALE:-1}" = 1 ]; then
    echo "=== ncu: attention_4k_d128 (one launch) ==="
    timeout 40 ncu --clock-control none --target-processes all --kernel-name regex:attention_O \
      --launch-count 1 --section SpeedOfLight --section SchedulerStats --section WarpStateStats \
      --section Occupancy --section ComputeWorkloadAnalysis \
      python3 bench/gpu/run_gemms.py --only '^attention_4k_d128_sm_90' --no-baselines \
      --iters 1 --reps 1 --out /tmp/ncu-run.md >"$out/ncu.txt" 2>&1
    echo "=== ncu exit $? ==="
  fi
  date -u
} 2>&1 | tee "$out/log.txt"
