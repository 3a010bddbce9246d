#!/usr/bin/env bash
# On a machine with a GPU (and ncu): builds preset ci and runs the named steps, each with its own
# log under $OUT (default out/gpu). Steps: build [TARGETS...] (everything, or those targets),
# unit (all C++ tests, no ASan), gpu-cpp REGEX (C++ tests matching REGEX), python
# [PYTEST-ARGS...] (the Python tests), wheel WHEEL (scripts/check_wheel.sh in a venv over the
# machine's own packages, torch among them), bench [PARTS] (bench/run_bench.py, all its parts or
# the comma-separated PARTS; its entry.md and figures.csv are copied to $OUT).
#   scripts/gpu_run.sh build "gpu-cpp kscope.gpu.cupti" "python tests/python/test_gpu_cold_regions.py"
#   scripts/gpu_run.sh "build _kscope kscope_cli_in_package kscope_bench_kernels" "bench compare_gate"
# Prints one summary line per step; exits non-zero when a step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out/gpu}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
source scripts/lib/python_env.sh
# With pytest-timeout (the GPU machine has it), a test past 600 s (the C++ GPU tests' limit) fails
# with every thread's stack instead of holding the step until the caller's limit.
per_test_limit=""
if "$PY" -c "import pytest_timeout" >/dev/null 2>&1; then per_test_limit="--timeout=600"; fi
status=0
for step in "$@"; do
  read -r name args <<<"$step"
  t0=$(date +%s)
  case "$name" in
    build) { cmake --preset ci -DPython_EXECUTABLE="$PY" &&
             cmake --build --preset ci -j "$(nproc)" ${args:+--target $args}; } >"$OUT/build.log" 2>&1 ;;
    unit) ctest --preset ci -j "$(nproc)" -LE gpu >"$OUT/unit.log" 2>&1 ;;
    gpu-cpp) ctest --preset ci -R "$args" --output-on-failure -V >"$OUT/gpu-cpp.log" 2>&1 ;;
    python) PYTHONPATH="$(pwd)/python" "$PY" -m pytest ${args:-tests/python} -v -rs -s --tb=short \
              $per_test_limit >"$OUT/python.log" 2>&1 ;;
    wheel) KSCOPE_CHECK_OFFLINE=1 PYTHON="$PY" scripts/check_wheel.sh $args >"$OUT/wheel.log" 2>&1 ;;
    bench) "$PY" bench/run_bench.py --build build --no-build --out out/gpu-bench ${args:+--parts "$args"} \
             >"$OUT/bench.log" 2>&1 \
             && cp out/gpu-bench/entry.md out/gpu-bench/figures.csv "$OUT/" ;;
    *) echo "unknown step $name"; status=2; continue ;;
  esac
  rc=$?
  [ $rc -eq 0 ] || status=1
  echo "[gpu_run] $name: rc $rc in $(( $(date +%s) - t0 )) s ($OUT/$name.log)"
done
exit $status
