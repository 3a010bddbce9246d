#!/usr/bin/env bash
# Installs a kernelscope wheel into a fresh venv (its dependencies from PyPI) and runs it the
# way a user on another machine would, with the CUDA toolkit hidden: `kscope --help`,
# `kscope query-metrics --chip GH100` and a sweep that must stop with "no CUDA device" where
# there is no GPU. As root the toolkit directory is covered by an empty tmpfs in a private
# mount namespace; otherwise the check runs with the toolkit visible and says so.
#
# Usage: scripts/check_wheel.sh WHEEL
set -euo pipefail
wheel=$(realpath "${1:?usage: $0 WHEEL}")
cd "$(dirname "$0")/.."
venv=$(mktemp -d /tmp/kscope-wheel-venv.XXXXXX)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
start=$(date +%s)
"$venv/bin/pip" install -q --disable-pip-version-check "$wheel"
echo "[check] installed $(basename "$wheel") and its dependencies in $(( $(date +%s) - start )) s"

steps='set -euo pipefail
cd /
out=$(mktemp)
kscope --help >"$out"; head -n 3 "$out"
kscope query-metrics --chip GH100 >"$out"; head -n 2 "$out"; echo "($(wc -l <"$out") lines)"
rm -f "$out"
python - <<PY
import kscope
import kscope.collection.core  # the subpackage is in the wheel (nsight-python layout)
assert kscope.collection.core.ProfileResults is kscope.ProfileResults
print("layout: kscope.collection.core, thermovision, transformation, utils, visualization")
print("device_available:", kscope.device_available(), "-", kscope.device_unavailable_reason())

@kscope.analyze.kernel(configs=[(1,)])
def noop(n):
    with kscope.annotate("noop"):
        pass

try:
    noop()
except kscope.exceptions.NoDeviceError as error:
    print("sweep:", error)
else:
    print("sweep: ran (a GPU is present)")
PY
python -c "import kscope, os; print(\"kscope from\", os.path.dirname(kscope.__file__))"'
cuda=$(readlink -f /usr/local/cuda 2>/dev/null || true)
if [ "$(id -u)" = 0 ] && [ -n "$cuda" ] && [ -d "$cuda" ]; then
  echo "[check] with $cuda hidden (empty tmpfs), PATH=$venv/bin:/usr/bin:/bin"
  unshare --mount --propagation private bash -c \
    'mount -t tmpfs tmpfs "$1" && exec env -i HOME=/root PATH="$2/bin:/usr/bin:/bin" bash -c "$3"' \
    check "$cuda" "$venv" "$steps"
else
  echo "[check] note: the toolkit stays visible (not root, or no /usr/local/cuda)"
  env -i HOME="$HOME" PATH="$venv/bin:/usr/bin:/bin" bash -c "$steps"
fi
echo "[check] the wheel works without the CUDA toolkit"
