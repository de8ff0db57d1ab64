#!/usr/bin/env bash
# Configures and builds collsim into ./build (Release). Under CI, warnings
# are errors.
set -euo pipefail
cd "$(dirname "$0")/.."
werror=OFF
[[ "${CI:-}" == "true" ]] && werror=ON
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCOLLSIM_WERROR="$werror" >/dev/null
cmake --build build -j"$(nproc)"
