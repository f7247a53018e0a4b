#!/usr/bin/env bash
# Configures and builds Nautilus in build/ (Release, Ninja, ccache when
# present). Installs what is missing first (scripts/bootstrap.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
"$root/scripts/bootstrap.sh"
if [ ! -f build/build.ninja ]; then
  cmake -G Ninja -S . -B build -DCMAKE_BUILD_TYPE=Release
fi
ninja -C build "$@"
