"""Experimental API of nsight-python that kscope accepts (``kscope.experimental.collect``)."""

from .info_collectors import collect

__all__ = ["collect"]
