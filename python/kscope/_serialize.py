"""Python config values in the engine's JSON documents.

The engine writes each config's values as JSON scalars (``configs[i].values``). Python configs
may hold more: lists, tuples and dicts are written as JSON arrays and objects (tuples come back
as lists), ``None`` as ``null``; objects JSON cannot hold (tensors, ...) keep the engine's short
label. Reading them back in Python restores lists and dicts; the C++ loader keeps them as their
JSON text.
"""

from __future__ import annotations

import json
import math
import numbers
from collections.abc import Mapping
from typing import Any

from ._configs import is_bool, label

JsonValue = Any


def encode_value(value: Any) -> JsonValue:
    """``value`` as a JSON-compatible object (see the module docstring)."""
    if value is None or isinstance(value, str):
        return value
    if is_bool(value):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        as_float = float(value)
        return as_float if math.isfinite(as_float) else None
    if isinstance(value, (list, tuple)):
        return [encode_value(v) for v in value]
    if isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
        return {k: encode_value(v) for k, v in value.items()}
    return label(value)


def with_config_values(document: str, rows: list[tuple[Any, ...]]) -> dict[str, Any]:
    """The engine's JSON ``document`` with the configs' values replaced by ``rows``."""
    doc: dict[str, Any] = json.loads(document)
    for config, row in zip(doc.get("configs", []), rows):
        config["values"] = [encode_value(v) for v in row]
    return doc


def _header(path: str) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        first = f.readline()
        # A journal's first line is its header; a result file is one JSON document.
        if '"kscope.journal"' in first:
            header: dict[str, Any] = json.loads(first)
            return header
        document: dict[str, Any] = json.loads(first + f.read())
        return document


def read_config_values(path: str, count: int) -> list[tuple[Any, ...]] | None:
    """The configs' values of a result or journal file as Python objects, or None when the
    file does not hold ``count`` configs with values."""
    try:
        configs = _header(path).get("configs", [])
        rows = [tuple(c["values"]) for c in configs]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return rows if len(rows) == count else None


__all__ = ["encode_value", "read_config_values", "with_config_values"]
