#!/usr/bin/env bash
# Builds the kernelscope wheel for one Python from a clean export of the current commit (no
# in-tree build output can leak in), repairs it to the manylinux_2_28 tag with auditwheel, and
# prints its name, size and build time.
#
# The compiler is zig's clang (the pinned ziglang wheel, scripts/lib/zig/), targeting glibc 2.28
# with its libc++ linked statically into the module and the executable: the wheel runs on every
# x86-64 Linux with glibc 2.28 or newer (RHEL 8 and 9, Debian 10+, Ubuntu 20.04+), needs no C++
# runtime of the system and exports only PyInit__kscope, so it cannot clash with the libstdc++
# that torch or numpy load. nvcc compiles the one kernel (the L2 flush) with the system's g++ as
# its host compiler. CUPTI is left out of the wheel (auditwheel --exclude): it comes from the
# nvidia-cuda-cupti wheel, a runtime dependency, or from the CUDA toolkit. The CUDA runtime is
# linked statically; NVML and the driver are loaded at run time. libexpat.so.1 stays a system
# library (on the manylinux whitelist); it is linked by name, so its own references to this
# machine's newer glibc are the user's system's (--allow-shlib-undefined).
#
# Python 3.12 and newer build one cp312-abi3 wheel (nanobind's stable ABI) for 3.12 and every
# later CPython; older Pythons build a wheel of their own version (cp310, cp311).
# scripts/wheel_matrix.sh builds the three from roots of the distributions that have those
# Pythons and installs them on every Python from 3.10 to 3.14.
#
# Usage: scripts/build_wheel.sh [OUT_DIR]   (default dist/; then scripts/check_wheel.sh)
#   PYTHON=python3.X  the Python to build for (default: python3)
#   KSCOPE_JOBS=N     parallel build jobs (default: all cores)
#   KSCOPE_GLIBC=2.N  the oldest glibc to support (default 2.28)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/install_deps.sh
kscope_install_deps wheel  # g++ (nvcc's host compiler), CLI11, nlohmann-json, expat, python3-dev
out=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
tmp=$(mktemp -d /tmp/kscope-wheel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The builder: a venv of the Python built for, with the pinned tools (requirements-wheel.txt).
"${PYTHON:-python3}" -m venv "$tmp/venv"
PY=$tmp/venv/bin/python
"$PY" -m pip install -q --disable-pip-version-check -r requirements-wheel.txt \
  $(grep -E '^(nanobind|scikit-build-core)==' requirements-dev.txt)
export PATH="$tmp/venv/bin:$PATH"  # CMake, Ninja and auditwheel of the venv
glibc=${KSCOPE_GLIBC:-2.28}
export KSCOPE_GLIBC=$glibc
KSCOPE_ZIG=$("$PY" -c 'import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))')
export KSCOPE_ZIG
export CC="$PWD/scripts/lib/zig/cc" CXX="$PWD/scripts/lib/zig/c++"
export LDFLAGS="-Wl,--allow-shlib-undefined${LDFLAGS:+ $LDFLAGS}"
# nanobind's headers call fprintf(stderr, ...) and count on Python.h for <stdio.h>, which the
# limited API of the abi3 build does not bring in with libc++'s headers.
export CXXFLAGS="-include stdio.h${CXXFLAGS:+ $CXXFLAGS}"
# zig's clang reports no multiarch directory, which find_library needs to find libexpat.so in
# /usr/lib/x86_64-linux-gnu where no pkg-config points there.
export CMAKE_ARGS="-DCMAKE_LIBRARY_ARCHITECTURE=x86_64-linux-gnu${CMAKE_ARGS:+ $CMAKE_ARGS}"

# The current commit, or the whole tree where it is an export without git (scripts/wheel_matrix.sh
# hands one to the distributions' roots).
src=$tmp/src
mkdir "$src"
if revision=$(git rev-parse --short HEAD 2>/dev/null); then
  git archive HEAD | tar -x -C "$src"
else
  revision="an export"
  cp -a . "$src"
fi
start=$(date +%s)
echo "[kscope] building the wheel from $revision with $("$PY" -V) and" \
     "zig $("$KSCOPE_ZIG" version) for glibc $glibc in $src"
CMAKE_BUILD_PARALLEL_LEVEL=${KSCOPE_JOBS:-$(nproc)} \
  "$PY" -m pip wheel --no-deps --no-build-isolation --disable-pip-version-check -q \
  -w "$src/raw" "$src"
built=$(date +%s)
"$PY" -m auditwheel repair --plat "manylinux_${glibc/./_}_x86_64" \
  --exclude 'libcupti.so.*' --exclude 'libnvperf_host.so' --exclude 'libnvperf_target.so' \
  -w "$out" "$src"/raw/*.whl
wheel=$(ls -t "$out"/kernelscope-*.whl | head -n1)
echo "[kscope] $(basename "$wheel"): $(du -h "$wheel" | cut -f1) ($(stat -c %s "$wheel") bytes);" \
     "build $((built - start)) s, repair $(( $(date +%s) - built )) s"
