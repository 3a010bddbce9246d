"""The exceptions kscope raises.

Every error of the C++ engine arrives as a subclass of :class:`ProfilerException`. Where
nsight-python raises a built-in ``ValueError`` or ``RuntimeError`` for the same situation, the
kscope class also derives from that built-in, so ``except ValueError`` keeps working for
scripts written for nsight-python.

Exceptions raised by the benchmark function itself are never wrapped: they propagate unchanged
(``KeyboardInterrupt`` included).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum


class ProfilerException(Exception):
    """Base of every error kscope raises (nsight-python's generic profiler error)."""


class InvalidArgumentError(ProfilerException, ValueError):
    """An option, metric name or argument has an invalid value."""


class ConfigError(ProfilerException):
    """The configurations are unusable (count, lengths, empty sweep)."""


class FileFormatError(ProfilerException, ValueError):
    """A file kscope reads (result JSON, journal, ncu CSV, processed CSV) is malformed; the
    message names the file, the line or JSON path, what was expected and what was found."""


class FileFormatWarning(UserWarning):
    """:func:`kscope.load` skipped a malformed line of a journal; the message names the file,
    the line and why."""


class AnnotationError(ProfilerException, ValueError):
    """Misuse of annotations: nesting, or a name reused within one run."""


class ExtractionError(ProfilerException, RuntimeError):
    """Measured kernels cannot be mapped to (annotation, config, run): wrong kernel counts,
    several kernels in one annotation, nothing profiled."""


class NoDeviceError(ProfilerException, RuntimeError):
    """No usable CUDA device or driver; the message starts with ``"no CUDA device: "``."""


class NotSupportedError(ProfilerException, ValueError):
    """A valid value that the chosen tool or this build cannot honour yet (a hardware-counter
    metric with the cupti tool, a tool this build lacks, ...). The message
    names the alternative."""


class ToolError(ProfilerException, RuntimeError):
    """An external tool (ncu, compute-sanitizer, another CUPTI client) is missing, busy or
    failed."""


class CuptiError(ToolError):
    """A CUPTI call failed; ``code`` is the ``CUptiResult`` value."""

    code: int = 0


class NCUNotAvailableError(ToolError):
    """The Nsight Compute CLI (``ncu``) cannot be found: by ``kscope.activate(Tool.NCU)`` (not on
    PATH) or by a sweep with the ncu tool (not on PATH, ``KSCOPE_NCU`` or the CUDA toolkit)."""


class ThermalControlError(ProfilerException):
    """Thermal control could not do its job."""


class CoolingTimeoutError(ThermalControlError):
    """The GPU did not cool down within ``thermal_timeout``."""


#: C++ class name (``kscope::<name>``) -> Python class; the native module raises these.
ENGINE_EXCEPTIONS: dict[str, type[Exception]] = {
    "Error": ProfilerException,
    "InvalidArgument": InvalidArgumentError,
    "ConfigError": ConfigError,
    "FileFormatError": FileFormatError,
    "AnnotationError": AnnotationError,
    "ExtractionError": ExtractionError,
    "NoDeviceError": NoDeviceError,
    "NotSupportedError": NotSupportedError,
    "ToolError": ToolError,
    "CuptiError": CuptiError,
    "NcuNotAvailableError": NCUNotAvailableError,
    "ThermalControlError": ThermalControlError,
    "CoolingTimeoutError": CoolingTimeoutError,
}

#: Text of :class:`NCUNotAvailableError` (nsight-python's wording).
NCU_NOT_AVAILABLE_MSG = (
    "Nsight Compute CLI (ncu) is not available on this system. Profiling will not be "
    "performed.\nPlease install Nsight Compute CLI."
)


class MetricErrorType(Enum):
    """Kinds of metric errors named in :func:`get_metrics_error_message`."""

    INVALID = "Invalid"
    UNSUPPORTED = "Unsupported"


def get_metrics_error_message(
    metrics: Sequence[str] | str, error_type: MetricErrorType = MetricErrorType.INVALID
) -> str:
    """nsight-python's message for metric names the tool rejects."""
    shown = list(metrics) if not isinstance(metrics, str) else [metrics]
    return (
        f"{error_type.value} value {shown} for 'metrics' parameter for "
        "nsight.analyze.kernel().\nPlease refer ncu --query-metrics for list of supported "
        "metrics."
    )


@dataclass
class NCUErrorContext:
    """What an ncu failure report carries (nsight-python compatibility)."""

    errors: list[str] = field(default_factory=list)
    log_file_path: str = ""
    metrics: Sequence[str] = field(default_factory=list)


__all__ = [
    "AnnotationError",
    "ConfigError",
    "CoolingTimeoutError",
    "CuptiError",
    "ExtractionError",
    "FileFormatError",
    "FileFormatWarning",
    "InvalidArgumentError",
    "MetricErrorType",
    "NCUErrorContext",
    "NCUNotAvailableError",
    "NCU_NOT_AVAILABLE_MSG",
    "NoDeviceError",
    "NotSupportedError",
    "ProfilerException",
    "ThermalControlError",
    "ToolError",
    "get_metrics_error_message",
]
