# Sourced by the scripts: sets PY to a Python that has kscope's build and test dependencies.
# Uses $PYTHON (default python3) when it already has them (the GPU machine's Python does): the
# tests that need an optional pin it lacks (mypy, the Jupyter kernel's packages) skip and say so.
# Otherwise creates .venv with the pinned versions of requirements-dev.txt from PyPI.
PY=${PYTHON:-python3}
if ! "$PY" -c "import nanobind, numpy, pandas, matplotlib, pytest" >/dev/null 2>&1; then
  if [ ! -x .venv/bin/python ]; then
    echo "[kscope] creating .venv with the pinned Python dependencies (requirements-dev.txt)"
    "$PY" -m venv --system-site-packages .venv
  fi
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
  PY=$(pwd)/.venv/bin/python
  # Every pin is installed (CI takes this branch): the Jupyter kernel test must run, not skip.
  export KSCOPE_REQUIRE_NOTEBOOK_TEST=1
fi
export PY
