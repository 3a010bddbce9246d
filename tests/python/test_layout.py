"""The package has nsight-python's public module layout, and each name a script written for
nsight-python reaches is kscope's own object (one module per stage, no aliases)."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import kscope

# nsight-python's public modules (its package layout) and, per module, names its users and
# tests reach there.
NSIGHT_LAYOUT = {
    "analyze": ["kernel", "plot", "ignore_failures"],
    "annotation": ["annotate"],
    "collection": ["core"],
    "collection.core": ["ProfileResults"],
    "exceptions": ["ProfilerException", "NCUNotAvailableError", "ThermalControlError",
                   "CoolingTimeoutError", "MetricErrorType", "get_metrics_error_message",
                   "NCUErrorContext"],  # fmt: skip
    "experimental": ["collect"],
    "extraction": [],
    "info_collector": ["CollectionScope", "InfoCollector", "bind_args_to_signature"],
    "thermovision": ["ThermalController"],
    "tools_manager": ["Tool", "activate", "deactivate", "get_active_tool"],
    "transformation": [],
    "utils": ["VerbosityLevel", "row_panel", "col_panel", "CUDA_CORE_AVAILABLE",
              "find_external_stacklevel", "is_scalar"],  # fmt: skip
    "visualization": [],
}


@pytest.mark.parametrize("module", sorted(NSIGHT_LAYOUT))
def test_each_nsight_module_is_a_kscope_module(module):
    imported = importlib.import_module(f"kscope.{module}")
    for name in NSIGHT_LAYOUT[module]:
        assert hasattr(imported, name), f"kscope.{module}.{name}"
    # Reachable as attributes from the top, as after `import nsight`.
    obj = kscope
    for part in module.split("."):
        obj = getattr(obj, part)
    assert obj is imported


def test_top_level_names_are_the_modules_objects():
    assert kscope.annotate is kscope.annotation.annotate
    assert kscope.ProfileResults is kscope.collection.core.ProfileResults
    assert kscope.VerbosityLevel is kscope.utils.VerbosityLevel
    assert kscope.CollectionScope is kscope.info_collector.CollectionScope
    assert kscope.InfoCollector is kscope.info_collector.InfoCollector
    assert kscope.experimental.collect is kscope.info_collector.collect
    assert kscope.Tool is kscope.tools_manager.Tool
    assert kscope.activate is kscope.tools_manager.activate
    assert kscope.row_panel is kscope.utils.row_panel
    assert kscope.col_panel is kscope.utils.col_panel
    assert kscope.load is kscope.collection.core.load
    assert kscope.time is kscope.timing.time
    assert kscope.Timing is kscope.timing.Timing


def test_the_package_is_nsight_pythons_layout_plus_kscopes_additions():
    # One module per stage: the old modules (results, plot, tools, info_collectors, the private
    # helpers) were folded in, not kept beside the new ones as aliases.
    names = {m.name for m in pkgutil.walk_packages(kscope.__path__, "kscope.")}
    nsight = {f"kscope.{m}" for m in NSIGHT_LAYOUT}
    kscope_own = {"kscope.sanitize", "kscope.comparison", "kscope.pytest_plugin",
                  "kscope.collection.reexec", "kscope.__main__",
                   "kscope._native", "kscope._cuda_libs", "kscope._plot_command", "kscope._kscope",
                   "kscope._cupti_handoff", "kscope.cuda_graphs", "kscope.timing",
                   "kscope.testing"}
    assert names == nsight | kscope_own


def test_thermal_controller_carries_the_decorators_thermal_options(fake_engine):
    @kscope.analyze.kernel(configs=[(1,)], thermal_mode="manual", thermal_wait=12,
                           thermal_cont=30, thermal_timeout=60, thermal_device=0,
                           verbosity=kscope.VerbosityLevel.SILENT)  # fmt: skip
    def f(n):
        with kscope.annotate("a"):
            pass

    controller = f.__kscope_profiler__.settings.thermal
    assert isinstance(controller, kscope.thermovision.ThermalController)
    assert not controller.adaptive_mode
    f()
    options = fake_engine.calls[0]["options"]
    assert (options.thermal_mode, options.thermal_wait, options.thermal_cont,
            options.thermal_timeout, options.thermal_device) == ("manual", 12, 30, 60, 0)  # fmt: skip


def test_thermal_controller_defaults_to_nsight_pythons_auto_mode():
    controller = kscope.thermovision.ThermalController()
    assert controller.adaptive_mode and controller.thermal_mode == "auto"
    # The engine's defaults (kscope/options.hpp), nsight-python's values.
    assert (controller.thermal_wait, controller.thermal_cont) == (10, 20)
    assert controller.thermal_timeout is None  # the engine's 180 s
    assert kscope.thermovision.ThermalController(thermal_mode="off").adaptive_mode is False
