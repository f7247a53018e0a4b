#!/usr/bin/env bash
# Sets up, builds, and runs the main job on an example: compiles attention to
# PTX for Hopper, and runs it on the CPU checked against the reference
# interpreter.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh" nautc nautc-opt
examples="$root/examples"
nautc="$root/build/bin/nautc"
mkdir -p "$root/out"
set -x
"$nautc" compile "$examples/attention.tensor" -k attention --target sm_90 \
  --shape B=2,H=16,N=4096,M=4096,D=128 --emit ptx -o "$root/out/attention.sm_90.ptx"
"$nautc" run "$examples/attention.tensor" -k attention --device cpu \
  --shape B=2,H=4,N=77,M=131,D=64 --check
