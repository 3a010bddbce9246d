"""Where CUPTI comes from: the nvidia-cuda-cupti wheel's nvidia/cu13/lib when installed (found
through the ``nvidia`` namespace package), else the toolkit. The real loading is checked by
scripts/check_wheel.sh on an installed wheel; here the lookup runs on a fake site directory."""

from __future__ import annotations

import importlib
import sys

import pytest

from kscope_launcher import cuda_libs

from kscope import _cuda_libs


@pytest.fixture
def fake_site(tmp_path, monkeypatch):
    """A site directory with nvidia/cu13/lib/libcupti.so.13 first on sys.path."""
    lib = tmp_path / "nvidia" / "cu13" / "lib"
    lib.mkdir(parents=True)
    (lib / "libcupti.so.13").write_bytes(b"")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "nvidia", raising=False)
    importlib.invalidate_caches()
    return lib


def test_the_wheels_directory_is_found(fake_site):
    assert cuda_libs.cupti_wheel_dir() == str(fake_site)


def test_the_executable_gets_it_first_on_the_library_path(fake_site):
    env = cuda_libs.child_environment({"LD_LIBRARY_PATH": "/opt/x", "HOME": "/h"})
    assert env == {"LD_LIBRARY_PATH": f"{fake_site}:/opt/x", "HOME": "/h"}
    assert cuda_libs.child_environment({})["LD_LIBRARY_PATH"] == str(fake_site)


def test_without_the_wheel_nothing_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(cuda_libs, "cupti_wheel_dir", lambda: None)
    monkeypatch.setattr(_cuda_libs, "cupti_wheel_dir", lambda: None)
    env = {"LD_LIBRARY_PATH": "/opt/x"}
    assert cuda_libs.child_environment(env) == env
    _cuda_libs.preload()  # loads nothing, raises nothing


def test_a_namespace_without_cu13_is_not_the_wheel(tmp_path, monkeypatch):
    (tmp_path / "nvidia" / "cudnn").mkdir(parents=True)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "nvidia", raising=False)
    importlib.invalidate_caches()
    found = cuda_libs.cupti_wheel_dir()
    assert found is None or not found.startswith(str(tmp_path))
