#!/usr/bin/env bash
# On the build machine (nautc built): compiles the GEMM, attention and MoE bundles that
# bench/gpu/run_gemms.py runs on a GPU machine, into bench/gpu/bundles/.
#   [MULTIPROCESSORS=N] bench/gpu/prepare.sh [PATH/TO/nautc] [sm_90|sm_80 ...]
# MULTIPROCESSORS: the GPU's multiprocessors, when it is not the part the
# target's default schedules fill (132 for sm_90, 108 for sm_80).
# Each bundle (nautc compile --emit bundle, see runtime/Bundle.h)
# is the kernel's launch plan and PTX for one shape: sizes are bound, so
# nautc picks the pipeline for them (wgmma + TMA on sm_90 where rows are
# 16-byte aligned, mma.sync otherwise); but a linear layer compiled
# without M, run at the sizes its NAME.sizes.json gives. The bundles of earlier runs are
# removed first; run_gemms.py runs those of the device's newest target.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
nautc="${1:-$root/build/bin/nautc}"
shift || true
targets=("${@:-sm_90}")
examples="$root/examples"
out="$here/bundles"
mkdir -p "$out"
# Bundles of an earlier run (another target, a case since removed) would
# otherwise be run as well.
rm -f "$out"/*.json "$out/libnautilus_runtime.so"
# Nautilus's runtime library (the C API; no LLVM), for
# NAUTILUS_GPU_LAUNCHER=capi on the GPU machine (a stale one is removed
# above: without a build's, the capi rows fail rather than time old code).
runtime_lib="$root/build/lib/libnautilus_runtime.so.0"
if [ -f "$runtime_lib" ]; then
  cp -L "$runtime_lib" "$out/libnautilus_runtime.so"
fi
# What the lease prints, so that its log says which code it measured.
git -C "$root" log -1 --format='%h %cI %s' > "$out/COMMIT" 2>/dev/null || true

# name:kernel file:kernel:shape
cases=(
  "f16_4096:$examples/gemm.tensor:gemm:M=4096,N=4096,K=4096"
  "f16_8192:$examples/gemm.tensor:gemm:M=8192,N=8192,K=8192"
  "f16_ragged:$examples/gemm.tensor:gemm:M=4000,N=3000,K=5000"
  "f16_unaligned:$examples/gemm.tensor:gemm:M=4097,N=4095,K=4093"
  "f16_skinny_m16:$examples/gemm.tensor:gemm:M=16,N=8192,K=8192"
  "f16_skinny_k128:$examples/gemm.tensor:gemm:M=8192,N=8192,K=128"
  # Too few tiles even at 64 x 64 (4, and a decoding step's 64): K split
  # into chunks (32 and 2 on 132 multiprocessors), summed by a second program.
  "f16_splitk_128:$examples/gemm.tensor:gemm:M=128,N=128,K=16384"
  "f16_splitk_decode_m16:$examples/gemm.tensor:gemm:M=16,N=4096,K=4096"
  "bf16_4096:$root/bench/kernels/gemm_bf16.tensor:gemm_bf16:M=4096,N=4096,K=4096"
  "bf16_8192:$root/bench/kernels/gemm_bf16.tensor:gemm_bf16:M=8192,N=8192,K=8192"
  "bf16_ragged:$root/bench/kernels/gemm_bf16.tensor:gemm_bf16:M=4000,N=3000,K=5000"
  "bf16_skinny_m16:$root/bench/kernels/gemm_bf16.tensor:gemm_bf16:M=16,N=8192,K=8192"
  # Attention, one flash kernel each (FlashAttention's benchmark shapes:
  # 16k tokens a batch, a hidden size of 2048; 1k, 4k and 16k tokens a
  # sequence; head dims 64, 128 and 256; causal and not), checked and
  # timed against PyTorch's scaled_dot_product_attention (its flash and
  # cuDNN backends).
  "attention_1k_d64:$examples/attention.tensor:attention:B=16,H=32,N=1024,M=1024,D=64"
  "attention_1k_d128:$examples/attention.tensor:attention:B=16,H=16,N=1024,M=1024,D=128"
  "attention_1k_d256:$examples/attention.tensor:attention:B=16,H=8,N=1024,M=1024,D=256"
  "attention_4k_d64:$examples/attention.tensor:attention:B=4,H=32,N=4096,M=4096,D=64"
  "attention_4k_d128:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128"
  "attention_4k_d256:$examples/attention.tensor:attention:B=4,H=8,N=4096,M=4096,D=256"
  "attention_16k_d64:$examples/attention.tensor:attention:B=1,H=32,N=16384,M=16384,D=64"
  "attention_16k_d128:$examples/attention.tensor:attention:B=1,H=16,N=16384,M=16384,D=128"
  "attention_16k_d256:$examples/attention.tensor:attention:B=1,H=8,N=16384,M=16384,D=256"
  "causal_1k_d128:$examples/attention.tensor:attention_causal:B=16,H=16,N=1024,M=1024,D=128"
  "causal_4k_d64:$examples/attention.tensor:attention_causal:B=4,H=32,N=4096,M=4096,D=64"
  "causal_4k_d128:$examples/attention.tensor:attention_causal:B=4,H=16,N=4096,M=4096,D=128"
  "causal_4k_d256:$examples/attention.tensor:attention_causal:B=4,H=8,N=4096,M=4096,D=256"
  "causal_16k_d128:$examples/attention.tensor:attention_causal:B=1,H=16,N=16384,M=16384,D=128"
  "gqa_4k_d128:$examples/attention.tensor:attention_gqa:B=4,H=32,G=8,N=4096,M=4096,D=128"
  "attention_ragged_d64:$examples/attention.tensor:attention:B=2,H=8,N=1000,M=1500,D=64"
  # A decoding step of batch 1 (one query row, 32 heads): the flash kernel
  # split over the keys (split-KV), the chunks' triples combined by a
  # second program; at 8192 keys and at a long context of 131072.
  "attention_decode_d128:$examples/attention.tensor:attention:B=1,H=32,N=1,M=8192,D=128"
  "attention_decode_long_d128:$examples/attention.tensor:attention:B=1,H=32,N=1,M=131072,D=128"
  # The same step with grouped-query heads (8 K/V heads for 32 query heads,
  # as Llama 3 8B): each program's tile holds a group's 4 heads, which share
  # each K and V block; timed against PyTorch's SDPA with K and V repeated
  # and with enable_gqa.
  "gqa_decode_d128:$examples/attention.tensor:attention_gqa:B=1,H=32,G=8,N=1,M=8192,D=128"
  "gqa_decode_long_d128:$examples/attention.tensor:attention_gqa:B=1,H=32,G=8,N=1,M=131072,D=128"
  # A mixture of experts at Mixtral 8x7B's shapes (7 programs: routing,
  # X's rows gathered, gate, up, silu(G) * U, down, combine) and a ragged
  # one, checked against a per-expert PyTorch loop; and the same layer with
  # G and U in bf16 (as PyTorch keeps them) rather than f32.
  "moe_mixtral:$examples/moe.tensor:moe_ffn:T=4096,D=4096,F=14336,E=8,J=2"
  "moe_ragged:$examples/moe.tensor:moe_ffn:T=1000,D=2048,F=5000,E=8,J=2"
  "moe_mixtral_bf16_gu:$root/bench/kernels/moe_bf16_gu.tensor:moe_ffn_bf16_gu:T=4096,D=4096,F=14336,E=8,J=2"
  # A gated MLP (SwiGLU) at Llama 2 7B's sizes, at prefill and at a
  # decoding step of 16 tokens: the gate and up projections are sibling
  # contractions of one program (X staged once a step for both: mma.sync
  # on sm_80, wgmma on sm_90 at prefill); the `_apart` variants below keep
  # them in two programs; against PyTorch's three cuBLAS matmuls.
  "mlp_4096:$examples/mlp.tensor:swiglu_mlp:T=4096,D=4096,F=11008"
  "mlp_decode_16:$examples/mlp.tensor:swiglu_mlp:T=16,D=4096,F=11008"
  # Row reductions shared by groups of threads (reduce_threads): a norm over
  # many rows, at a decoding step (one row: one block), and a softmax;
  # checked and timed against PyTorch's own kernels.
  "rmsnorm_4096:$examples/norms.tensor:rmsnorm:T=4096,D=4096"
  "rmsnorm_decode:$examples/norms.tensor:rmsnorm:T=1,D=8192"
  "softmax_4096:$examples/norms.tensor:softmax:R=4096,C=4096"
  # Layernorm (f32): its mean and variance one row stream (Welford/Chan),
  # then Y.
  "layernorm_4096:$examples/norms.tensor:layernorm:T=4096,D=4096"
  # Few long rows, which the heuristics split across programs (Y then a
  # program of its own); the `_swept` variants below share each row unsplit
  # and sweep Y in its program, as the auto-scheduler's structure does.
  "layernorm_64x8192:$examples/norms.tensor:layernorm:T=64,D=8192"
  "rmsnorm_8x16384:$examples/norms.tensor:rmsnorm:T=8,D=16384"
  # A softmax over a vocabulary at a decoding step: one row of 131072,
  # its maximum and sum each split 32 ways.
  "softmax_vocab:$examples/norms.tensor:softmax:R=1,C=131072"
)
# sm_90 only: FlashAttention-3's structure as schedule options beside the
# default kernels above (a producer warpgroup; with ping-pong consumers;
# with the softmax overlapped),
# so that one run shows what each adds (docs/architecture.md, "Streams on
# GPUs"): name, file, kernel, sizes, program, the mma's extra fields.
fa3_cases=(
  "attention_4k_d128_producer:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O:producers = 1"
  "attention_4k_d128_pingpong:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O:producers = 1, ping_pong = 1"
  "attention_16k_d128_pingpong:$examples/attention.tensor:attention:B=1,H=16,N=16384,M=16384,D=128:attention_O:producers = 1, ping_pong = 1"
  "attention_4k_d64_pingpong:$examples/attention.tensor:attention:B=4,H=32,N=4096,M=4096,D=64:attention_O:producers = 1, ping_pong = 1"
  "causal_4k_d128_pingpong:$examples/attention.tensor:attention_causal:B=4,H=16,N=4096,M=4096,D=128:attention_causal_O:producers = 1, ping_pong = 1"
  "attention_4k_d128_pingpong_3stages:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O:producers = 1, ping_pong = 1:3"
  "attention_4k_d256_producer:$examples/attention.tensor:attention:B=4,H=8,N=4096,M=4096,D=256:attention_O:producers = 1:2:64"
  # The softmax overlapped with the previous block's P V (with ping-pong:
  # FlashAttention-3's whole structure), three stages (a stage is
  # released a step later: with two the producer could not copy ahead).
  "attention_4k_d128_overlap:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O:producers = 1, overlap_softmax = 1:3"
  "attention_4k_d128_fa3:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O:producers = 1, ping_pong = 1, overlap_softmax = 1:3"
  "attention_16k_d128_fa3:$examples/attention.tensor:attention:B=1,H=16,N=16384,M=16384,D=128:attention_O:producers = 1, ping_pong = 1, overlap_softmax = 1:3"
  "causal_4k_d128_fa3:$examples/attention.tensor:attention_causal:B=4,H=16,N=4096,M=4096,D=128:attention_causal_O:producers = 1, ping_pong = 1, overlap_softmax = 1:3"
  "attention_4k_d64_fa3:$examples/attention.tensor:attention:B=4,H=32,N=4096,M=4096,D=64:attention_O:producers = 1, ping_pong = 1, overlap_softmax = 1:3"
  # Blocks of 128 keys (the default's are 64): half the steps, each twice
  # the work, so half the per-step waits, barriers and rescales of O; 183
  # registers at d128 (198 causal), beyond the 168 a producer's 384
  # threads leave a thread, so with a producer the consumers take its
  # registers (setmaxnreg 232).
  "attention_1k_d128_k128:$examples/attention.tensor:attention:B=16,H=16,N=1024,M=1024,D=128:attention_O::2:128:128"
  "attention_4k_d128_k128:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O::2:128:128"
  "attention_16k_d128_k128:$examples/attention.tensor:attention:B=1,H=16,N=16384,M=16384,D=128:attention_O::2:128:128"
  "causal_1k_d128_k128:$examples/attention.tensor:attention_causal:B=16,H=16,N=1024,M=1024,D=128:attention_causal_O::2:128:128"
  "causal_4k_d128_k128:$examples/attention.tensor:attention_causal:B=4,H=16,N=4096,M=4096,D=128:attention_causal_O::2:128:128"
  "attention_4k_d64_k128:$examples/attention.tensor:attention:B=4,H=32,N=4096,M=4096,D=64:attention_O::2:128:128"
  "attention_16k_d64_k128:$examples/attention.tensor:attention:B=1,H=32,N=16384,M=16384,D=64:attention_O::2:128:128"
  "causal_4k_d64_k128:$examples/attention.tensor:attention_causal:B=4,H=32,N=4096,M=4096,D=64:attention_causal_O::2:128:128"
  "attention_4k_d128_k128_producer:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O:producers = 1:2:128:128"
  "attention_4k_d128_k128_pingpong:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O:producers = 1, ping_pong = 1:2:128:128"
  "attention_4k_d128_k128_fa3:$examples/attention.tensor:attention:B=4,H=16,N=4096,M=4096,D=128:attention_O:producers = 1, ping_pong = 1, overlap_softmax = 1:3:128:128"
  "attention_16k_d128_k128_fa3:$examples/attention.tensor:attention:B=1,H=16,N=16384,M=16384,D=128:attention_O:producers = 1, ping_pong = 1, overlap_softmax = 1:3:128:128"
  "causal_4k_d128_k128_pingpong:$examples/attention.tensor:attention_causal:B=4,H=16,N=4096,M=4096,D=128:attention_causal_O:producers = 1, ping_pong = 1:2:128:128"
)
# The structure the auto-scheduler's GPU models choose for softmax and
# layernorm (their reductions fused in a row stream, Y swept in its
# program: one program, X read from DRAM once) against the other
# structures: Y a program of its own (`_unswept`, two programs, X read
# twice: the default until the thirty-ninth session) and each reduction a
# program of its own too (`_apart`, three programs), all with the
# heuristics' schedules: the GPU structure choice, measured
# (docs/autoscheduler.md, "Rewrite choices").
apart_cases=(
  "softmax_4096:$examples/norms.tensor:softmax:R=4096,C=4096"
  "layernorm_4096:$examples/norms.tensor:layernorm:T=4096,D=4096"
)
extra=()
if [ -n "${MULTIPROCESSORS:-}" ]; then
  extra=(--multiprocessors "$MULTIPROCESSORS")
fi
# Compiles each case (name:file:kernel:shape) for $target under the
# schedule file $structure, as NAME_VARIANT_TARGET.json.
compile_structure() {
  local variant=$1 c name file kernel shape
  shift
  for c in "$@"; do
    IFS=: read -r name file kernel shape <<<"$c"
    "$nautc" compile "$file" -k "$kernel" --target "$target" --shape "$shape" \
      "${extra[@]}" --schedule "$structure" --emit bundle \
      -o "$out/${name}_${variant}_${target}.json"
    echo "$out/${name}_${variant}_${target}.json"
  done
}
# Compiles kernel $3 of file $2 for $target with only the sizes $4 bound
# (none where empty), under --schedule auto and the heuristics, and copies
# each bundle as NAME_SCHEDULE_TAG_TARGET.json for each run TAG={sizes}
# that follows (its sizes in NAME_SCHEDULE_TAG_TARGET.sizes.json), NAME
# being $1.
compile_unbound() {
  local name=$1 file=$2 kernel=$3 shape=$4 schedule run bundle
  shift 4
  for schedule in auto heuristics; do
    "$nautc" compile "$file" -k "$kernel" --target "$target" ${shape:+--shape "$shape"} \
      "${extra[@]}" --schedule "$schedule" --emit bundle -o "$unbound"
    for run in "$@"; do
      bundle="$out/${name}_${schedule}_${run%%=*}_${target}"
      cp "$unbound" "$bundle.json"
      echo "${run#*=}" >"$bundle.sizes.json"
      echo "$bundle.json"
    done
  done
}
for target in "${targets[@]}"; do
  for c in "${cases[@]}"; do
    IFS=: read -r name file kernel shape <<<"$c"
    "$nautc" compile "$file" -k "$kernel" --target "$target" --shape "$shape" \
      "${extra[@]}" --emit bundle -o "$out/${name}_${target}.json"
    echo "$out/${name}_${target}.json"
  done
  structure=$(mktemp)
  for variant in unswept apart; do
    if [ "$variant" = apart ]; then
      echo '{"fuse_reductions": false, "sweep_row_consumers": false, "programs": {}}' >"$structure"
    else
      echo '{"sweep_row_consumers": false, "programs": {}}' >"$structure"
    fi
    compile_structure "$variant" "${apart_cases[@]}"
  done
  # The MLP's and the mixture of experts' other structure: the gate and up
  # projections apart (two GEMMs, grouped for the experts, then A).
  echo '{"fuse_shared_operands": false, "programs": {}}' >"$structure"
  compile_structure apart \
    "mlp_4096:$examples/mlp.tensor:swiglu_mlp:T=4096,D=4096,F=11008" \
    "mlp_decode_16:$examples/mlp.tensor:swiglu_mlp:T=16,D=4096,F=11008" \
    "moe_mixtral:$examples/moe.tensor:moe_ffn:T=4096,D=4096,F=14336,E=8,J=2" \
    "moe_ragged:$examples/moe.tensor:moe_ffn:T=1000,D=2048,F=5000,E=8,J=2"
  # Rows the heuristics split, shared for the sweep (a schedule file's
  # explicit `"sweep_row_consumers": true`: the GPU model's best unsplit
  # schedule of the rows' program, Y swept in it; forty-third session).
  echo '{"sweep_row_consumers": true, "programs": {}}' >"$structure"
  compile_structure swept \
    "layernorm_64x8192:$examples/norms.tensor:layernorm:T=64,D=8192" \
    "rmsnorm_8x16384:$examples/norms.tensor:rmsnorm:T=8,D=16384"
  rm -f "$structure"
  # A linear layer compiled without M (a bundle an application launches at
  # every number of tokens; N = K = 4096): --schedule auto's copies for
  # ranges of M (docs/autoscheduler.md, "A contraction whose M or N is
  # unbound") against the heuristics' one schedule, each bundle run at M =
  # 16, 128, 512 and 4096 (the sizes in NAME.sizes.json beside it).
  unbound=$(mktemp)
  compile_unbound f16_unbound_m "$examples/gemm.tensor" gemm N=4096,K=4096 \
    'm16={"M": 16}' 'm128={"M": 128}' 'm512={"M": 512}' 'm4096={"M": 4096}'
  # Softmax and layernorm compiled without their sizes: --schedule auto's
  # rows ranked over sample shapes (Y apart), copies for ranges of
  # the rows' length (docs/autoscheduler.md, "GPU programs of unbound
  # sizes"), against the heuristics' (one row a thread, Y apart), each
  # bundle run at rows x length 4096 x 4096, 32 x 4096, 4096 x 128 and
  # 1 x 131072.
  for kernel in softmax:R:C layernorm:T:D; do
    IFS=: read -r kernel rows length <<<"$kernel"
    runs=()
    for shape in 4096x4096 32x4096 4096x128 1x131072; do
      runs+=("$shape={\"$rows\": ${shape%x*}, \"$length\": ${shape#*x}}")
    done
    compile_unbound "${kernel}_unbound" "$examples/norms.tensor" "$kernel" "" "${runs[@]}"
  done
  # Attention compiled with its head dimension alone (D = 128): the flash
  # model's schedule ranked over sample shapes against the heuristics',
  # run at 32 heads of 512 and 4096 tokens and at a decoding step (one
  # query, 8192 keys: unsplit, the keys unbound).
  compile_unbound attention_unbound "$examples/attention.tensor" attention D=128 \
    '512x512={"B": 1, "H": 32, "N": 512, "M": 512}' \
    '4096x4096={"B": 1, "H": 32, "N": 4096, "M": 4096}' \
    '1x8192={"B": 1, "H": 32, "N": 1, "M": 8192}'
  # A decoding step compiled with one query, 8 heads and D = 128 (B and M
  # unbound): --schedule auto's copies for ranges of B and M, the copy for
  # few heads and many keys splitting them (split-KV at launch), against
  # the heuristics' one unsplit schedule; run at one sequence of 8192 and
  # of 512 keys, and 32 of 4096.
  compile_unbound decode_unbound "$examples/attention.tensor" attention N=1,H=8,D=128 \
    '1x8192={"B": 1, "M": 8192}' '1x512={"B": 1, "M": 512}' \
    '32x4096={"B": 32, "M": 4096}'
  rm -f "$unbound"
  [ "$target" = sm_90 ] || continue
  for c in "${fa3_cases[@]}"; do
    IFS=: read -r name file kernel shape program fields stages rows keys <<<"$c"
    d=${shape##*D=}
    rows=${rows:-128} # (at D = 256 one consumer warpgroup: 64 rows)
    threads=$((2 * rows)) # a warpgroup a 64 rows, and a producer's
    case "$fields" in *producers*) threads=$((threads + 128)) ;; esac
    schedule=$(mktemp)
    printf '{"programs": {"%s": "#tile.schedule<tile = [1, 1, %s, %s], threads = %s, mma = #tile.mma<instr = \\"wgmma\\", tile_k = %s, warps = [%s, 1], stages = %s%s>>"}}\n' \
      "$program" "$rows" "$d" "$threads" "${keys:-64}" $((rows / 16)) "${stages:-2}" "${fields:+, $fields}" >"$schedule"
    "$nautc" compile "$file" -k "$kernel" --target "$target" --shape "$shape" \
      "${extra[@]}" --schedule "$schedule" --emit bundle -o "$out/${name}_${target}.json"
    rm -f "$schedule"
    echo "$out/${name}_${target}.json"
  done
done
