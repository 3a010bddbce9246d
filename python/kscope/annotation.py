"""``kscope.annotate``: marks the region whose kernels are measured.

An annotation is the engine's annotation (``kscope::begin_annotation``): an NVTX start/end range
in the domain ``"kscope"``, process-wide, so a kernel launched from any thread while it is open
belongs to it, and C++ and Python annotations are one concept.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from .utils import warn
from ._native import native
from .exceptions import AnnotationError

F = TypeVar("F", bound=Callable[..., Any])


class annotate:  # noqa: N801 - lower-case name of nsight-python's API
    """Context manager and function decorator marking a measured region.

    >>> with kscope.annotate("matmul"):
    ...     c = a @ b

    Rules (raised as :class:`kscope.exceptions.AnnotationError`, a ``ValueError``):
    annotations do not nest, and a name is used at most once per run.

    Args:
        name: the annotation's name; it becomes the ``Annotation`` column.
        ignore_failures: when the block raises an ``Exception``, swallow it and record this
            run of the annotation as failed: its values become NaN (``NumRuns`` counts only
            the runs that succeeded) and its kernel count is not checked. A
            ``RuntimeWarning`` names the annotation and the exception. ``KeyboardInterrupt``
            and other ``BaseException``s always propagate.
    """

    def __init__(self, name: str, ignore_failures: bool = False) -> None:
        if not isinstance(name, str):
            raise TypeError(f"annotation name must be a str, got {type(name).__name__}")
        try:
            name.encode("utf-8")
        except UnicodeEncodeError as e:
            raise AnnotationError(
                f"Invalid annotation name {name!r}: it is not valid text ({e.reason} at "
                f"position {e.start}); annotation names must be encodable as UTF-8."
            ) from None
        self.name = name
        self.ignore_failures = bool(ignore_failures)

    def __enter__(self) -> annotate:
        native.begin_annotation(self.name)
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        failed = exc_type is not None
        native.end_annotation(failed)
        if exc_type is not None and self.ignore_failures and isinstance(exc, Exception):
            warn(
                f"Annotation '{self.name}' ignored an exception ({exc_type.__name__}: {exc}); "
                "this run of the annotation is recorded as NaN.",
                RuntimeWarning,
            )
            return True
        return False

    def __call__(self, func: F) -> F:
        """Decorator form: every call of ``func`` runs inside this annotation."""

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    def __repr__(self) -> str:
        return f"annotate({self.name!r}, ignore_failures={self.ignore_failures})"


__all__ = ["annotate"]
