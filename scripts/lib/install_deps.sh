# Installs what kscope needs to build, from the distribution's packages (Debian 12 / Ubuntu),
# when something is missing. Sourced by scripts/demo.sh, scripts/test.sh and .ci/run; also
# runnable on its own: scripts/lib/install_deps.sh [demo|test]
#
#   demo: cmake ninja-build g++ nlohmann-json3-dev libcli11-dev libexpat1-dev
#         (library, CLI, C++ examples)
#   test: the above and libgtest-dev python3 python3-dev python3-venv
#         (the C++ and Python tests; the Python packages come from PyPI, scripts/lib/python_env.sh)
#         and, optionally, locales (the comma-decimal locale test skips without it) and the
#         scale-out tests' launchers: slurmctld slurmd slurm-client munge openmpi-bin (pinned to
#         Debian 12's versions there; tests/python/test_slurm.py, test_mpi.py skip without them)
#   wheel: g++ nlohmann-json3-dev libcli11-dev libexpat1-dev python3-dev python3-venv
#         (scripts/build_wheel.sh: CMake, Ninja and the compiler come from PyPI; g++ is nvcc's
#         host compiler)
#
# As root it runs `apt-get update` then `apt-get install`; otherwise it prints the one command
# to run and fails (a missing optional package alone is only mentioned). The CUDA toolkit is not a distribution package: when no nvcc is found it
# says where kscope looks. Afterwards nvcc's directory is on PATH.

kscope_cmake_minimum=3.25

# Prints the Debian packages of `profile` that are missing, one per line.
kscope_missing_packages() {
  local profile=$1
  if [ "$profile" != wheel ]; then
    command -v cmake >/dev/null || echo cmake
    command -v ninja >/dev/null || echo ninja-build
  fi
  command -v g++ >/dev/null || echo g++
  [ -f /usr/include/nlohmann/json.hpp ] || echo nlohmann-json3-dev
  [ -f /usr/include/CLI/CLI.hpp ] || echo libcli11-dev
  [ -f /usr/include/expat.h ] || echo libexpat1-dev  # the sanitizer's XML reports
  [ "$profile" != demo ] || return 0
  [ "$profile" = wheel ] || [ -f /usr/include/gtest/gtest.h ] || echo libgtest-dev
  local py=${PYTHON:-python3}
  if ! command -v "$py" >/dev/null; then
    echo python3; echo python3-dev; echo python3-venv; return 0
  fi
  # Python.h, for the nanobind module.
  "$py" -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
    2>/dev/null || echo python3-dev
  # The wheel is built in a venv of its own; for the tests a venv is made only when $PYTHON lacks
  # the pinned packages (scripts/lib/python_env.sh).
  if [ "$profile" = wheel ] || ! "$py" -c "import nanobind, numpy, pandas, matplotlib, pytest" >/dev/null 2>&1; then
    "$py" -c "import venv, ensurepip" >/dev/null 2>&1 || echo python3-venv
  fi
}

# Prints the optional Debian packages of `profile` that are missing: installed with the others
# as root, never a reason to stop.
kscope_missing_optional_packages() {
  [ "$1" = test ] || return 0
  # The comma-decimal locale test builds de_DE.UTF-8 from the locale sources (tests/cpp/core).
  [ -d /usr/share/i18n/locales ] || echo locales
  # A Slurm cluster of one host and Open MPI run the scale-out recipes (docs/scale-out.md).
  local pin_slurm="" pin_munge="" pin_mpi=""
  if grep -qx 'VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null; then
    pin_slurm="=22.05.8-4*" pin_munge="=0.5.15-2*" pin_mpi="=4.1.4-3*"
  fi
  [ -x /usr/sbin/slurmctld ] || echo "slurmctld$pin_slurm"
  [ -x /usr/sbin/slurmd ] || echo "slurmd$pin_slurm"
  [ -x /usr/bin/sbatch ] || echo "slurm-client$pin_slurm"
  [ -x /usr/sbin/munged ] || echo "munge$pin_munge"
  [ -x /usr/bin/mpirun ] || echo "openmpi-bin$pin_mpi"
}

# Fails with a message when CMake is older than the presets need.
kscope_check_cmake_version() {
  local have
  have=$(cmake --version | sed -n 's/^cmake version \([0-9.]*\).*/\1/p')
  if [ "$(printf '%s\n%s\n' "$kscope_cmake_minimum" "$have" | sort -V | head -n1)" != "$kscope_cmake_minimum" ]; then
    echo "kscope: CMake $have found; the presets need CMake >= $kscope_cmake_minimum" \
         "(Debian 12 has 3.25; elsewhere: python3 -m pip install 'cmake>=$kscope_cmake_minimum')" >&2
    return 1
  fi
}

# Puts nvcc on PATH, or fails with where the toolkit was looked for.
kscope_find_cuda() {
  command -v nvcc >/dev/null && return 0
  local root=${CUDAToolkit_ROOT:-/usr/local/cuda}
  if [ -x "$root/bin/nvcc" ]; then
    export PATH="$root/bin:$PATH"
    return 0
  fi
  echo "kscope: the CUDA toolkit (nvcc, CUPTI; 13.0) was not found at $root: install it from" \
       "https://developer.nvidia.com/cuda-downloads or set CUDAToolkit_ROOT" >&2
  return 1
}

# Installs the missing packages of `profile` (demo | test | wheel), then checks CMake (but for
# the wheel, whose CMake comes from PyPI) and CUDA.
kscope_install_deps() {
  local profile=${1:-test}
  local need optional
  need=$(kscope_missing_packages "$profile" | tr '\n' ' ')
  need=${need% }
  optional=$(kscope_missing_optional_packages "$profile" | tr '\n' ' ')
  optional=${optional% }
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    if [ -n "$need" ]; then
      echo "kscope: missing packages; install them with:" >&2
      echo "  sudo apt-get update && sudo apt-get install -y $need${optional:+ $optional}" >&2
      return 1
    fi
    [ -z "$optional" ] || echo "[kscope] optional, not installed: $optional (sudo apt-get install -y $optional)"
  elif [ -n "$need$optional" ]; then
    need=$(echo $need $optional)
    echo "[kscope] installing: $need"
    apt-get update -qq
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
  fi
  [ "$profile" = wheel ] || kscope_check_cmake_version
  kscope_find_cuda
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  kscope_install_deps "${1:-test}"
fi
