#!/usr/bin/env bash
# Proves that the README's two commands set up a fresh Debian 12 machine by themselves: builds a
# minimal Debian 12 root with mmdebstrap (Debian's packages only: the minbase variant plus git
# and ca-certificates), clones this repository's current commit into it, installs the CUDA
# toolkit there as NVIDIA's installer leaves it (the toolkit directory bind-mounted read-only at
# its own path, the /usr/local/cuda link, the loader's configuration for its lib directory),
# and runs scripts/demo.sh then scripts/test.sh there as root, timing each.
# The demo must stop with "no CUDA device" (exit 1) where there is no GPU; the tests must pass.
#
# Needs root, mmdebstrap (apt-get install mmdebstrap), a CUDA toolkit (default /usr/local/cuda)
# and network access to deb.debian.org and PyPI. About 17-21 min on two cores (nothing is cached in
# the fresh root); .ci/run runs it with KSCOPE_CI_FRESH_MACHINE=1; docs/development.md has a
# recorded run.
#
# Usage: scripts/fresh_machine_check.sh [--keep] [--demo-only]
#   --keep        keep the root afterwards (it is printed) instead of removing it
#   --demo-only   run only scripts/demo.sh
#   CUDA_HOME     toolkit to bind-mount at /usr/local/cuda (default /usr/local/cuda)
#   KSCOPE_SKIP_ASAN=1  passed on to scripts/test.sh
set -euo pipefail
keep=0
demo_only=0
for arg in "$@"; do
  case $arg in
    --keep) keep=1 ;;
    --demo-only) demo_only=1 ;;
    *) echo "usage: $0 [--keep] [--demo-only]" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" = 0 ] || { echo "fresh_machine_check: needs root (chroot, mounts)" >&2; exit 1; }
command -v mmdebstrap >/dev/null ||
  { echo "fresh_machine_check: needs mmdebstrap: apt-get install mmdebstrap" >&2; exit 1; }
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -x "$cuda/bin/nvcc" ] || { echo "fresh_machine_check: no nvcc under $cuda (set CUDA_HOME)" >&2; exit 1; }
cuda_dir=$(readlink -f "$cuda")  # /usr/local/cuda -> /usr/local/cuda-13.0

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
source "$repo/scripts/lib/fresh_root.sh"
commit=$(git -C "$repo" rev-parse HEAD)
[ -z "$(git -C "$repo" status --porcelain)" ] ||
  echo "fresh_machine_check: note: uncommitted changes are not part of the check (it clones $commit)"
root=$(mktemp -d /var/tmp/kscope-fresh.XXXXXX)
cleanup() {
  if [ "$keep" = 1 ]; then echo "fresh_machine_check: root kept at $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT

seconds() { date +%s; }
t0=$(seconds)
echo "[fresh] mmdebstrap bookworm (minbase + git, ca-certificates) into $root"
kscope_fresh_root "$root" bookworm git
t1=$(seconds)
echo "[fresh] git clone of $commit"
git clone --quiet --no-checkout "$(git -C "$repo" rev-parse --path-format=absolute --git-common-dir)" \
  "$root/root/kscope"
git -C "$root/root/kscope" checkout --quiet "$commit"
kscope_root_cuda "$root" "$cuda_dir"

# The chroot's commands, with nothing of this machine's environment (no ccache, no venv).
steps='cd /root/kscope
t=$(date +%s)
set +e
scripts/demo.sh >/tmp/demo.log 2>&1
demo_rc=$?
set -e
tail -n 3 /tmp/demo.log
echo "[fresh] scripts/demo.sh: exit $demo_rc after $(( $(date +%s) - t )) s"
grep -q "no CUDA device" /tmp/demo.log || [ "$demo_rc" = 0 ] || { cat /tmp/demo.log; exit 1; }
[ "$DEMO_ONLY" = 1 ] && exit 0
t=$(date +%s)
scripts/test.sh >/tmp/test.log 2>&1 || {
  grep -E "\*\*\*Failed|FAILED|Error" /tmp/test.log | head -n 40; tail -n 40 /tmp/test.log; exit 1; }
grep -E "tests passed|passed|skipped" /tmp/test.log | tail -n 6
echo "[fresh] scripts/test.sh: exit 0 after $(( $(date +%s) - t )) s"'

kscope_in_root "$root" "$cuda_dir" "$steps" DEMO_ONLY="$demo_only" \
  KSCOPE_SKIP_ASAN="${KSCOPE_SKIP_ASAN:-0}"
t2=$(seconds)
echo "[fresh] mmdebstrap $((t1 - t0)) s; clone, set-up, build and tests $((t2 - t1)) s; total $((t2 - t0)) s"
