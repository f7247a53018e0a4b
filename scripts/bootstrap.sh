#!/usr/bin/env bash
# Installs, from Debian's archive and PyPI, everything Nautilus needs to build
# and test. Idempotent: packages already present are left alone.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

PACKAGES=(
  cmake ninja-build ccache g++ python3 python3-pip python3-setuptools python3-numpy
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22
  libz3-dev libfmt-dev libgtest-dev zlib1g-dev libzstd-dev libedit-dev
  libxml2-dev libcurl4-openssl-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "bootstrap: all Debian packages present"
fi

# numpy for the end-to-end tests: Debian's or the active interpreter's.
if ! python3 -c 'import numpy' 2>/dev/null; then
  python3 -m pip install --quiet numpy
fi
# nvdisasm, where the CUDA toolkit is installed without it: NVIDIA's wheel
# on PyPI. The SASS tests (REQUIRES: nvdisasm) and the benchmarks' SASS
# tables use it; without it they are skipped.
has_nvdisasm() {
  command -v nvdisasm >/dev/null || [ -x /usr/local/cuda/bin/nvdisasm ] ||
    python3 - <<'PY' 2>/dev/null
import glob, importlib.util, os, sys
spec = importlib.util.find_spec("nvidia")
found = spec and any(glob.glob(os.path.join(p, "*", "bin", "nvdisasm"))
                     for p in spec.submodule_search_locations)
sys.exit(0 if found else 1)
PY
}
if [ -x /usr/local/cuda/bin/ptxas ] && ! has_nvdisasm; then
  python3 -m pip install --quiet nvidia-cuda-nvdisasm ||
    echo "bootstrap: nvdisasm not installed: SASS tests will be skipped"
fi
