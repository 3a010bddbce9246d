"""``kscope.thermovision``: thermal control (nsight-python's ``nsight.thermovision``).

The engine guards every run (src/thermal/thermal_controller.hpp, docs/telemetry.md): before a
run it reads the GPU's thermal headroom and, at or below ``thermal_wait`` degC, pauses until the
headroom is back to ``thermal_cont``; in ``"auto"`` mode ``thermal_cont`` adapts to how fast the
GPU heats up. :class:`ThermalController` is the Python side of that guard: the thermal options
of one ``@kscope.analyze.kernel``, checked by the engine's rules when the decorator is applied
and handed to the engine's controller for every call.
"""

from __future__ import annotations

from typing import Any, Literal

from ._native import native

ThermalMode = Literal["auto", "manual", "off"]

#: The engine's defaults (kscope/options.hpp): thermal headroom in degC that pauses profiling
#: and that ends a pause.
DEFAULT_THERMAL_WAIT: int = int(native.DEFAULT_THERMAL_WAIT)
DEFAULT_THERMAL_CONT: int = int(native.DEFAULT_THERMAL_CONT)


class ThermalController:
    """The thermal options of one decorated function, as nsight-python's constructor takes
    them; the engine's thermal controller applies them before every run.

    Args:
        thermal_mode: ``"auto"`` (adaptive ``thermal_cont``), ``"manual"`` (fixed thresholds)
            or ``"off"``.
        thermal_wait: thermal headroom (degC) at or below which profiling pauses; None: the
            engine's default (:data:`DEFAULT_THERMAL_WAIT`, 10).
        thermal_cont: headroom at which a pause ends; None: the engine's default
            (:data:`DEFAULT_THERMAL_CONT`, 20). Must be greater than ``thermal_wait``.
        thermal_timeout: longest pause in seconds; None: the engine's default (180).
        thermal_device: CUDA ordinal to watch; None: the device current before each run.
        verbose: accepted for nsight-python's signature; the engine prints thermal messages
            at ``VerbosityLevel.DEBUG``.

    The values are checked by the engine (``Options::validate``) when the decorator is applied,
    with the same texts as in C++.
    """

    def __init__(
        self,
        thermal_mode: ThermalMode = "auto",
        thermal_wait: int | None = None,
        thermal_cont: int | None = None,
        thermal_timeout: int | None = None,
        thermal_device: int | None = None,
        verbose: bool = False,
    ) -> None:
        self.thermal_mode: str = thermal_mode
        self.thermal_wait = DEFAULT_THERMAL_WAIT if thermal_wait is None else thermal_wait
        self.thermal_cont = DEFAULT_THERMAL_CONT if thermal_cont is None else thermal_cont
        # Left unset, the engine names a threshold as its default in messages.
        self._defaults = (thermal_wait is None, thermal_cont is None)
        self.thermal_timeout = thermal_timeout
        self.thermal_device = thermal_device
        self.verbose = bool(verbose)

    @property
    def adaptive_mode(self) -> bool:
        """Whether ``thermal_cont`` adapts to the GPU (``thermal_mode="auto"``)."""
        return self.thermal_mode == "auto"

    def apply(self, options: Any) -> None:
        """Writes these settings into the engine's ``Options`` (``kscope._kscope.Options``)."""
        options.thermal_mode = self.thermal_mode
        wait_default, cont_default = self._defaults
        options.thermal_wait = (None if wait_default and self.thermal_wait == DEFAULT_THERMAL_WAIT
                                else self.thermal_wait)  # fmt: skip
        options.thermal_cont = (None if cont_default and self.thermal_cont == DEFAULT_THERMAL_CONT
                                else self.thermal_cont)  # fmt: skip
        options.thermal_timeout = self.thermal_timeout
        options.thermal_device = self.thermal_device

    def __repr__(self) -> str:
        return (
            f"ThermalController(thermal_mode={self.thermal_mode!r}, "
            f"thermal_wait={self.thermal_wait}, thermal_cont={self.thermal_cont}, "
            f"thermal_timeout={self.thermal_timeout}, thermal_device={self.thermal_device})"
        )


__all__ = ["DEFAULT_THERMAL_CONT", "DEFAULT_THERMAL_WAIT", "ThermalController", "ThermalMode"]
