#!/usr/bin/env bash
# Installs a kernelscope wheel into a fresh venv (its dependencies from PyPI) and runs it the
# way a user on another machine would, with the CUDA toolkit hidden:
#   - `kscope --help`, and how long `kscope show --help` takes to start (median of 21 runs; it
#     fails above KSCOPE_STARTUP_LIMIT_MS, default 50);
#   - `kscope query-metrics --chip GH100`;
#   - `show`, `compare`, `merge` and `plot` on the golden results of tests/fixtures/golden;
#   - the README's Python quickstart as printed, which must stop with "no CUDA device" where there
#     is no GPU (with an empty module standing in for torch when torch is not installed: without
#     a device the benchmark's body never runs), and the nsight-python module layout;
#   - with a GPU (and torch and pytest): the pytest plugin on a small benchmark, twice, the second
#     run compared with the first through --kscope-autosave's history.
# As root the toolkit directory is covered by an empty tmpfs in a private mount namespace;
# otherwise the check runs with the toolkit visible and says so.
#
# Usage: scripts/check_wheel.sh WHEEL
#   PYTHON=python3.X        the Python of the venv (default python3)
#   KSCOPE_CHECK_OFFLINE=1  install the wheel alone into a venv that sees the system's packages
#   KSCOPE_CHECK_PLOT=R.json  also `kscope plot R.json -o R.png` (a result made elsewhere)
set -euo pipefail
wheel=$(realpath "${1:?usage: $0 WHEEL}")
cd "$(dirname "$0")/.."
repo=$(pwd)
venv=$(mktemp -d /tmp/kscope-wheel-venv.XXXXXX)
trap 'rm -rf "$venv"' EXIT
start=$(date +%s)
if [ "${KSCOPE_CHECK_OFFLINE:-0}" = 1 ]; then
  # No package index (the GPU machine): the venv sees the packages of $PYTHON (torch, numpy,
  # pandas, matplotlib, nvidia-cuda-cupti) through a .pth file, which works where $PYTHON is
  # itself a venv (--system-site-packages would see its base's), and gets the wheel alone.
  "${PYTHON:-python3}" -m venv "$venv"
  "${PYTHON:-python3}" -c 'import site; print("\n".join(site.getsitepackages()))' \
    >"$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/_outer.pth"
  "$venv/bin/pip" install -q --disable-pip-version-check --no-index --no-deps "$wheel"
else
  "${PYTHON:-python3}" -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "$wheel[plot]"
fi
echo "[check] installed $(basename "$wheel") and its dependencies in $(( $(date +%s) - start )) s" \
     "($("$venv/bin/python" -V), glibc $(ldd --version | sed -n '1s/.* //p'))"

steps='set -euo pipefail
work=$(mktemp -d)
cd "$work"
golden=$REPO/tests/fixtures/golden
kscope --help >help.txt; head -n 3 help.txt
python - <<PY
import os, statistics, subprocess, sys, time
times = []
for _ in range(21):
    start = time.perf_counter()
    subprocess.run(["kscope", "show", "--help"], check=True, stdout=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1e3)
limit = float(os.environ.get("KSCOPE_STARTUP_LIMIT_MS", "50"))
median = statistics.median(times)
print(f"start-up: kscope show --help median {median:.1f} ms, best {min(times):.1f} ms (21 runs)")
sys.exit(f"start-up over {limit:g} ms" if median > limit else 0)
PY
kscope query-metrics --chip GH100 >metrics.txt; head -n 2 metrics.txt; echo "($(wc -l <metrics.txt) lines)"
kscope show "$golden/vadd_results.json" >show.txt; head -n 4 show.txt
kscope compare "$golden/vadd_results.json" "$golden/vadd_results.json" >compare.txt
echo "compare: $(grep -c SAME compare.txt) rows SAME"
kscope merge "$golden/vadd_results.json" -o merged.json >/dev/null
echo "merge: $(python -c "import json; print(len(json.load(open(\"merged.json\"))[\"processed\"]))") rows"
kscope plot "$golden/vadd_results.json" -o vadd.png
test -s vadd.png
python - <<PY
import kscope
import kscope.collection.core  # the subpackage is in the wheel (nsight-python layout)
assert kscope.collection.core.ProfileResults is kscope.ProfileResults
print("layout: kscope.collection.core, thermovision, transformation, utils, visualization")
print("device_available:", kscope.device_available(), "-", kscope.device_unavailable_reason())
PY
# The README quickstart, as printed.
sed -n "/^## Python quickstart/,/^## /p" "$REPO/README.md" |
  sed -n "/^\`\`\`python$/,/^\`\`\`$/p" | sed "1d;\$d" >quickstart.py
python -c "import torch" 2>/dev/null || : >torch.py
if [ -s quickstart.py ] && python quickstart.py >quickstart.log 2>&1; then
  echo "quickstart: ran (a GPU is present)"; tail -n 4 quickstart.log
else
  grep -q "no CUDA device" quickstart.log || { cat quickstart.log; exit 1; }
  echo "quickstart: $(grep -o "kscope.exceptions.NoDeviceError: no CUDA device" quickstart.log)"
fi
# A result made elsewhere (the C++ quickstart of the README, its vadd.json), plotted.
if [ -n "${KSCOPE_CHECK_PLOT:-}" ]; then
  kscope plot "$KSCOPE_CHECK_PLOT" -o "${KSCOPE_CHECK_PLOT%.json}.png"
  test -s "${KSCOPE_CHECK_PLOT%.json}.png"
fi
# With a GPU: the pytest plugin on a small benchmark, twice, the second run compared with the
# first through the saved history.
if python -c "import kscope, sys; sys.exit(not kscope.device_available())" &&
   python -c "import torch, pytest" 2>/dev/null; then
  cat >test_bench.py <<PY
import kscope, torch

def test_add(kscope_benchmark):
    a = torch.ones(1 << 22, device="cuda")
    def add(n):
        with kscope.annotate("add"):
            a[:n] + a[:n]
    kscope_benchmark(add, 1 << 22, runs="auto")
PY
  for run in first second; do
    compare=(); [ "$run" = first ] || compare=(--kscope-compare=latest)
    python -m pytest -q -p kscope.pytest_plugin -p no:cacheprovider --kscope-autosave \
      "${compare[@]}" test_bench.py >"pytest-$run.log" 2>&1 || { cat "pytest-$run.log"; exit 1; }
  done
  echo "pytest plugin: $(ls .kscope | tr "\n" " ")saved"
  grep -A6 "kscope benchmarks" pytest-second.log
fi
python -c "import kscope, os; print(\"kscope from\", os.path.dirname(kscope.__file__))"'
env=(HOME="${HOME:-/root}" PATH="$venv/bin:/usr/bin:/bin" REPO="$repo"
     KSCOPE_CHECK_PLOT="${KSCOPE_CHECK_PLOT:-}"
     KSCOPE_STARTUP_LIMIT_MS="${KSCOPE_STARTUP_LIMIT_MS:-50}")
cuda=$(readlink -f /usr/local/cuda 2>/dev/null || true)
if [ "$(id -u)" = 0 ] && [ -n "$cuda" ] && [ -d "$cuda" ]; then
  echo "[check] with $cuda hidden (empty tmpfs), PATH=$venv/bin:/usr/bin:/bin"
  unshare --mount --propagation private bash -c \
    'mount -t tmpfs tmpfs "$1" && shift && exec env -i "$@"' \
    check "$cuda" "${env[@]}" bash -c "$steps"
elif [ -n "$cuda" ] && [ -d "$cuda" ]; then
  echo "[check] note: the toolkit at $cuda stays visible (not root)"
  env -i "${env[@]}" bash -c "$steps"
else
  echo "[check] no CUDA toolkit on this machine"
  env -i "${env[@]}" bash -c "$steps"
fi
echo "[check] the wheel works without the CUDA toolkit"
