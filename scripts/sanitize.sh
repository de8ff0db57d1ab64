#!/usr/bin/env bash
# The sanitizer pass (issue 19): builds collsim with AddressSanitizer and
# UndefinedBehaviorSanitizer into build-asan/ and runs every test that starts
# neither smpirun nor mpirun (ctest -LE launches). Why the others cannot run
# under ASan: CMakeLists.txt, option COLLSIM_SANITIZE. Any report fails the
# pass (halt on the first error, leaks included). About 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOLLSIM_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
ctest --test-dir build-asan -LE launches --output-on-failure -j"$(nproc)"
