#!/usr/bin/env bash
# Builds everything and runs every test: the C++ unit tests, GPU tests and examples (these skip
# with the reason when there is no GPU), the Python tests, and the unit tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer. Usage: scripts/test.sh
#   KSCOPE_SKIP_ASAN=1   skip the sanitizer build (faster local iterations)
#   KSCOPE_JOBS=N        parallel build jobs (default: all cores)
#   KSCOPE_FUZZ_SECONDS=N  how long each fuzz target runs under ASan (default 60; 0 skips)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/install_deps.sh
kscope_install_deps test
source scripts/lib/python_env.sh
JOBS=${KSCOPE_JOBS:-$(nproc)}

echo "[kscope] build (preset ci) with $PY"
cmake --preset ci -DPython_EXECUTABLE="$PY" >/dev/null
cmake --build --preset ci -j "$JOBS"

echo "[kscope] C++ tests"
ctest --preset ci -j "$JOBS"

echo "[kscope] Python tests"
PYTHONPATH="$(pwd)/python${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m pytest tests/python -v -rs --tb=short

# examples/python and the README's snippets are checked as user code by
# tests/python/test_typing.py (part of the Python tests above).
echo "[kscope] mypy --strict on python/kscope"
if "$PY" -c "import mypy" 2>/dev/null; then
  "$PY" -m mypy
else
  echo "[kscope] mypy: skipped: $PY has no mypy (pip install mypy==2.4.1, requirements-dev.txt)"
fi

if [ "${KSCOPE_SKIP_ASAN:-0}" != "1" ]; then
  echo "[kscope] unit tests under ASan/UBSan (preset asan)"
  cmake --preset asan >/dev/null
  cmake --build --preset asan -j "$JOBS"
  ASAN_OPTIONS=detect_leaks=1 ctest --preset asan -j "$JOBS"

  FUZZ_SECONDS=${KSCOPE_FUZZ_SECONDS:-60}
  if [ "$FUZZ_SECONDS" != "0" ]; then
    echo "[kscope] fuzz targets under ASan/UBSan, ${FUZZ_SECONDS} s each (tests/fuzz/README.md)"
    fuzz_dir=build-asan/tests/fuzz
    fixtures=tests/fixtures
    pids=()
    regressions=tests/fuzz/regressions
    "$fuzz_dir/kscope_fuzz_ncu_csv" --seconds "$FUZZ_SECONDS" --out "$fuzz_dir" "$fixtures/ncu" \
      "$regressions/ncu_csv" &
    pids+=($!)
    "$fuzz_dir/kscope_fuzz_sanitizer_xml" --seconds "$FUZZ_SECONDS" --out "$fuzz_dir" \
      "$fixtures/sanitizer" "$regressions/sanitizer_xml" &
    pids+=($!)
    "$fuzz_dir/kscope_fuzz_results_file" --seconds "$FUZZ_SECONDS" --out "$fuzz_dir" \
      "$fixtures/golden" tests/fuzz/seeds "$regressions/results_file" &
    pids+=($!)
    fuzz_failed=0
    for pid in "${pids[@]}"; do wait "$pid" || fuzz_failed=1; done
    if [ "$fuzz_failed" != "0" ]; then
      echo "[kscope] a fuzz target found an input that is not answered with a kscope error; see above"
      exit 1
    fi
  fi
fi
echo "[kscope] all tests passed"
