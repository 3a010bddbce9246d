"""Compatibility with scripts written for nsight-python (``import kscope as nsight``, or an
``nsight`` package that re-exports kscope): messages name the call the user wrote.

The module imports kscope only as ``nsight``, as such a script does."""

from __future__ import annotations

import sys
import types

import pytest

import kscope as nsight

SILENT = nsight.VerbosityLevel.SILENT


def _decorate() -> object:
    @nsight.analyze.kernel(configs=[(1,)], verbosity=SILENT)
    def f(n):
        with nsight.annotate("a"):
            pass
        return n

    return f


def test_the_engine_names_the_call_through_the_alias(fake_engine):
    f = _decorate()
    with pytest.warns(RuntimeWarning, match=r"^Function 'f' returns a value, but the return value "
                      r"for a function which is decorated with nsight\.analyze\.kernel is ignored"):  # fmt: skip
        f()
    assert fake_engine.calls[0]["options"].call_name == "nsight.analyze.kernel()"


def test_a_package_reexporting_kscope_is_the_name_used(fake_engine, monkeypatch):
    # The runner of nsight-python's own tests (scripts/run_nsight_python_suite.py) puts an
    # `nsight` package on the path that only re-exports kscope; a test importing
    # `from nsight import analyze` has no alias in its globals.
    shim = types.ModuleType("nsight_shim")
    shim.__path__ = []  # a package
    shim.analyze = nsight.analyze
    monkeypatch.setitem(sys.modules, "nsight_shim", shim)
    monkeypatch.delitem(globals(), "nsight")
    try:
        from kscope import analyze

        @analyze.kernel(configs=[(1,)], verbosity=SILENT)
        def g(n):
            pass

        g()
    finally:
        globals()["nsight"] = sys.modules["kscope"]
    assert fake_engine.calls[0]["options"].call_name == "nsight_shim.analyze.kernel()"


def test_kscope_users_see_kscope(fake_engine):
    namespace: dict[str, object] = {"kscope": sys.modules["kscope"]}
    exec(  # noqa: S102 - a script that imports kscope under its own name
        "@kscope.analyze.kernel(configs=[(1,)], verbosity=kscope.VerbosityLevel.SILENT)\n"
        "def h(n):\n    pass\n"
        "h()\n",
        namespace,
    )
    assert fake_engine.calls[0]["options"].call_name == "kscope.analyze.kernel()"


def test_validate_collectors_takes_nsight_pythons_arguments():
    from kscope import info_collector
    from kscope.exceptions import ProfilerException

    def kernel(n, dtype):
        pass

    info_collector.validate_collectors([("driver", lambda: "1", "once")], func=kernel)
    with pytest.raises(ProfilerException, match=r"^Duplicate info collector name 'd'\."):
        info_collector.validate_collectors([("d", lambda: 1, "once"), ("d", lambda *a: 2, "run")])
    with pytest.raises(ProfilerException, match=r"^Info collector name 'Geomean' collides with "
                       r"a reserved profiler column\."):  # fmt: skip
        info_collector.validate_collectors([("Geomean", lambda *a: 1, "config")])
    with pytest.raises(ProfilerException, match=r"^Info collector name 'n' collides with a "
                       r"parameter of 'kernel'\."):  # fmt: skip
        info_collector.validate_collectors([("n", lambda *a: 1, "config")], func=kernel)


def test_the_plot_decorator_is_named_as_the_user_wrote_it(fake_engine, tmp_path):
    pytest.importorskip("matplotlib")

    def tflops(t, n):
        return 2 * n / t, "TFLOPS"

    @nsight.analyze.plot(str(tmp_path / "p.png"))
    @nsight.analyze.kernel(configs=[(1,)], derive_metric=tflops, verbosity=SILENT)
    def p(n):
        with nsight.annotate("a"):
            pass

    with pytest.raises(ValueError, match=r"^Cannot visualize multiple metrics \(2 > 1\) with the "
                       r"@nsight\.analyze\.plot decorator\. Please specify a metric to plot\."):  # fmt: skip
        p()


def test_lazy_modules_are_not_imported_while_looking_for_the_alias(fake_engine, monkeypatch):
    # A module whose __getattr__ imports on demand (or fails) must not be touched.
    class Lazy(types.ModuleType):
        def __getattr__(self, name):
            raise ModuleNotFoundError(f"lazy import of {name}")

    lazy = Lazy("lazy_pkg")
    lazy.__path__ = []
    monkeypatch.setitem(sys.modules, "lazy_pkg", lazy)
    f = _decorate()
    with pytest.warns(RuntimeWarning):
        f()
    assert fake_engine.calls[0]["options"].call_name == "nsight.analyze.kernel()"
