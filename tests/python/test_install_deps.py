"""scripts/lib/install_deps.sh, the set-up of the README's commands: the one line a user who is
not root gets for missing packages, and the messages for an old CMake and a missing toolkit.
Commands are replaced by stubs on PATH; nothing is installed."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "lib", "install_deps.sh")


def _stub(directory, name: str, body: str) -> None:
    path = directory / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)


def _run(tmp_path, call: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Sources the script and runs `call` with the stubs in tmp_path/bin first on PATH."""
    bin_dir = tmp_path / "bin"
    environment = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), **env}
    return subprocess.run(["bash", "-c", f'source "{SCRIPT}"; {call}'], capture_output=True,
                          text=True, env=environment, cwd=ROOT)  # fmt: skip


@pytest.fixture
def stubs(tmp_path):
    """A user that is not root (id -u: 1000) and CMake 3.25.1."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    _stub(bin_dir, "id", 'echo 1000')
    _stub(bin_dir, "cmake", 'echo "cmake version 3.25.1"')
    return bin_dir


def test_a_user_gets_the_one_command_to_run(tmp_path, stubs):
    done = _run(tmp_path, "kscope_install_deps test", PYTHON=str(tmp_path / "no-python"))
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert lines[0] == "kscope: missing packages; install them with:"
    assert lines[1].startswith("  sudo apt-get update && sudo apt-get install -y ")
    # Then the optional packages this machine lacks (locales, the scale-out tests' launchers).
    optional = _run(tmp_path, "kscope_missing_optional_packages test").stdout.split()
    assert lines[1].endswith(" ".join(["python3", "python3-dev", "python3-venv", *optional]))


def test_an_old_cmake_is_named_with_the_minimum(tmp_path, stubs):
    _stub(stubs, "cmake", 'echo "cmake version 3.22.1"')
    done = _run(tmp_path, "kscope_check_cmake_version")
    assert done.returncode == 1
    assert done.stderr.startswith("kscope: CMake 3.22.1 found; the presets need CMake >= 3.25")


@pytest.mark.skipif(shutil.which("nvcc", path="/usr/bin:/bin") is not None,
                    reason="nvcc is installed in /usr/bin here")  # fmt: skip
def test_a_missing_toolkit_says_where_it_looked(tmp_path, stubs):
    done = _run(tmp_path, "kscope_find_cuda", CUDAToolkit_ROOT=str(tmp_path / "cuda"))
    assert done.returncode == 1
    assert f"was not found at {tmp_path / 'cuda'}" in done.stderr
    assert "set CUDAToolkit_ROOT" in done.stderr


def test_a_toolkit_root_puts_nvcc_on_path(tmp_path, stubs):
    nvcc_dir = tmp_path / "cuda" / "bin"
    nvcc_dir.mkdir(parents=True)
    _stub(nvcc_dir, "nvcc", "exit 0")
    done = _run(tmp_path, 'kscope_find_cuda && command -v nvcc',
                CUDAToolkit_ROOT=str(tmp_path / "cuda"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(nvcc_dir / "nvcc")


def test_the_wheel_needs_no_cmake_ninja_or_gtest_from_the_distribution(tmp_path, stubs):
    """scripts/build_wheel.sh takes CMake and Ninja from PyPI (Ubuntu 22.04's CMake is too old),
    so the wheel profile asks for neither, nor for GoogleTest, but for what builds the module."""
    done = _run(tmp_path, "kscope_install_deps wheel", PYTHON=str(tmp_path / "no-python"))
    assert done.returncode == 1
    command = done.stderr.splitlines()[1].split()
    assert command[-3:] == ["python3", "python3-dev", "python3-venv"]
    assert not {"cmake", "ninja-build", "libgtest-dev"} & set(command)
