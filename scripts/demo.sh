#!/usr/bin/env bash
# Builds kscope and runs the demo sweep (examples/cpp/01_vadd_sweep.cu): vector add over five
# sizes, two annotations, a derived GB/s metric. Prints the table and writes JSON, CSV and the
# journal to out/demo/. Without a GPU it prints "no CUDA device: <why>" and exits non-zero.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/install_deps.sh
kscope_install_deps demo
cmake --preset release >/dev/null
cmake --build --preset release -j "${KSCOPE_JOBS:-$(nproc)}" --target 01_vadd_sweep kscope_cli
mkdir -p out/demo
exec ./build-release/examples/cpp/01_vadd_sweep out/demo/
