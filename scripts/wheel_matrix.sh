#!/usr/bin/env bash
# Builds the release wheels for every Python kscope supports and installs each one on the
# Pythons it is for, in fresh roots of the distributions that carry those Pythons, the way users
# get them:
#   build (scripts/build_wheel.sh, each in a fresh root with the CUDA toolkit mounted):
#     cp310 on Ubuntu 22.04, cp311 on Debian 12, cp312-abi3 (3.12 and later) on Ubuntu 24.04;
#   check (scripts/check_wheel.sh in a fresh root with no toolkit and no compiler):
#     Python 3.10 on Ubuntu 22.04, 3.11 on Debian 12, 3.12 on Ubuntu 24.04, 3.13 on Debian 13,
#     3.14 on Ubuntu 26.04;
#   the engine's executable alone (show, compare, merge on the golden results) on Ubuntu 20.04
#     (glibc 2.31) and 18.04 (glibc 2.27), which have no Python as new as 3.10.
# Prints one line per check and a table at the end.
#
# Needs root, mmdebstrap and unshare, a CUDA toolkit (default /usr/local/cuda), the network to
# deb.debian.org, archive.ubuntu.com and PyPI. About 40-60 min on two cores; docs/development.md
# has a recorded run.
#
# Usage: scripts/wheel_matrix.sh [OUT_DIR]   (default dist/)
#   KSCOPE_MATRIX_SKIP_BUILD=1  check the wheels already in OUT_DIR
#   KSCOPE_JOBS=N               parallel build jobs (default: all cores)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
source scripts/lib/fresh_root.sh
[ "$(id -u)" = 0 ] || { echo "wheel_matrix: needs root (chroot, mounts)" >&2; exit 1; }
command -v mmdebstrap >/dev/null ||
  { echo "wheel_matrix: needs mmdebstrap: apt-get install mmdebstrap" >&2; exit 1; }
cuda_dir=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")
[ -x "$cuda_dir/bin/nvcc" ] || { echo "wheel_matrix: no nvcc under $cuda_dir (set CUDA_HOME)" >&2; exit 1; }
out=$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)
work=$(mktemp -d /var/tmp/kscope-matrix.XXXXXX)
trap 'rm -rf "$work"' EXIT
export_tree() { mkdir -p "$1" && git -C "$repo" archive HEAD | tar -x -C "$1"; }
results=()
# record WHAT RESULT: one row of the table.
record() { results+=("| $1 | $2 |"); echo "[matrix] $1: $2"; }

# build SUITE TAG: builds the wheel of the root's python3 in a fresh root of SUITE.
build() {
  local suite=$1 tag=$2 root=$work/build-$1
  local t0
  t0=$(date +%s)
  kscope_fresh_root "$root" "$suite"
  export_tree "$root/root/kscope"
  kscope_root_cuda "$root" "$cuda_dir"
  kscope_in_root "$root" "$cuda_dir" \
    'cd /root/kscope && scripts/build_wheel.sh /root/dist >/root/build.log 2>&1 ||
       { tail -n 40 /root/build.log; exit 1; }; tail -n 1 /root/build.log' \
    KSCOPE_JOBS="${KSCOPE_JOBS:-$(nproc)}"
  cp "$root"/root/dist/kernelscope-*-"$tag"-*.whl "$out/"
  record "build on $suite" "$(basename "$root"/root/dist/kernelscope-*.whl) in $(( $(date +%s) - t0 )) s"
  rm -rf "$root"
}

# check SUITE PYTHON TAG: installs the wheel of TAG with PYTHON in a fresh root of SUITE.
check() {
  local suite=$1 python=$2 tag=$3 root=$work/check-$1
  local wheel
  wheel=$(ls "$out"/kernelscope-*-"$tag"-*.whl | head -n1)
  kscope_fresh_root "$root" "$suite" "$python,$python-venv"
  export_tree "$root/root/kscope"
  cp "$wheel" "$root/root/"
  if kscope_in_root "$root" "" "cd /root/kscope && scripts/check_wheel.sh /root/$(basename "$wheel") \
       >/root/check.log 2>&1 || { cat /root/check.log; exit 1; }; cat /root/check.log" \
       PYTHON="$python" KSCOPE_STARTUP_LIMIT_MS="${KSCOPE_STARTUP_LIMIT_MS:-50}" >"$work/check.log"; then
    record "$suite, $(chroot "$root" "$python" -V), $(grep -o 'glibc [0-9.]*' "$work/check.log" | head -n1)" \
           "$(basename "$wheel") installed and ran; $(grep '^start-up' "$work/check.log")"
  else
    cat "$work/check.log"
    record "$suite, $python" "$(basename "$wheel") FAILED"
  fi
  rm -rf "$root"
}

# executable SUITE: the engine's executable from a wheel, with CUPTI from its PyPI wheel, on a
# distribution without a new enough Python.
executable() {
  local suite=$1 root=$work/exe-$1
  kscope_fresh_root "$root" "$suite"
  export_tree "$root/root/kscope"
  local site=$root/opt/site
  mkdir -p "$site"
  python3 -m zipfile -e "$(ls "$out"/kernelscope-*-cp311-*.whl | head -n1)" "$site"
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$work/cupti" \
    "$(grep -o 'nvidia-cuda-cupti[^"]*' "$repo/pyproject.toml" | cut -d';' -f1)"
  python3 -m zipfile -e "$work"/cupti/nvidia_cuda_cupti-*.whl "$site"
  chmod +x "$site/kscope/_bin/kscope"
  local glibc
  glibc=$(chroot "$root" ldd --version | sed -n '1s/.* //p')
  if kscope_in_root "$root" "" 'k=/opt/site/kscope/_bin/kscope; g=/root/kscope/tests/fixtures/golden
       $k --help >/dev/null && $k show $g/vadd_results.json >/dev/null &&
       $k compare $g/vadd_results.json $g/vadd_results.json >/dev/null &&
       $k merge $g/vadd_results.json -o /tmp/m.json >/dev/null' >"$work/exe.log" 2>&1; then
    record "$suite, glibc $glibc" "the engine's executable ran --help, show, compare and merge"
  else
    cat "$work/exe.log"
    record "$suite, glibc $glibc" "the engine's executable FAILED"
  fi
  rm -rf "$root"
}

if [ "${KSCOPE_MATRIX_SKIP_BUILD:-0}" != 1 ]; then
  build noble cp312
  build jammy cp310
  build bookworm cp311
fi
check jammy python3.10 cp310
check bookworm python3.11 cp311
check noble python3.12 cp312
check trixie python3.13 cp312
check resolute python3.14 cp312
executable focal
executable bionic

echo
echo "| check | result |"
echo "|---|---|"
printf '%s\n' "${results[@]}"
! printf '%s\n' "${results[@]}" | grep -q FAILED
