"""``kscope.experimental``: nsight-python's experimental API that kscope accepts
(``kscope.experimental.collect``, defined with the info collectors)."""

from .info_collector import collect

__all__ = ["collect"]
