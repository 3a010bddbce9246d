"""``kscope.tools_manager`` (nsight-python's ``nsight.tools_manager``): the choice of the
collection tool: which tool measures when a decorator does not name one.

kscope's tools:

- ``Tool.CUPTI`` (default): in-process kernel timing through CUPTI; works in notebooks.
- ``Tool.NCU``: re-runs the program under Nsight Compute (every hardware metric).
- ``Tool.SANITIZER``: re-runs the program under compute-sanitizer.

As in nsight-python, one tool is active per process: :func:`activate` selects it and refuses to
switch to another one; ``@kernel(tool=...)`` overrides the selection for one function.
"""

from __future__ import annotations

import shutil
from enum import Enum
from typing import TYPE_CHECKING, Literal

from .utils import warn
from ._native import native
from .exceptions import NCU_NOT_AVAILABLE_MSG, NCUNotAvailableError, NotSupportedError, ToolError

if TYPE_CHECKING:
    # What type checkers see. At run time the members are the engine's tool registry, one per
    # tool in its order (below); tests/python/test_tools.py checks that these are the same.

    class Tool(str, Enum):
        CUPTI = "cupti"
        NCU = "ncu"
        SANITIZER = "sanitizer"

else:
    Tool = Enum(
        "Tool",
        [(name.upper(), name) for name in native.available_tools()],
        type=str,
        module=__name__,
        qualname="Tool",
    )
    Tool.__doc__ = "The collection tools; the value is the engine's tool name."

#: What ``tool=`` accepts besides a :class:`Tool`: a member's value or name (for type checkers;
#: at run time any tool of the engine's is accepted).
ToolName = Literal["cupti", "ncu", "sanitizer", "CUPTI", "NCU", "SANITIZER"]

_active_tool: Tool | None = None

def _engine_tools() -> list[str]:
    """Tools the C++ engine of this build has (a seam for tests)."""
    return list(native.available_tools())


def _external_program(tool: Tool) -> str | None:
    """The program a re-executing tool needs on PATH, from the engine's tool registry (None:
    an in-process tool)."""
    program: str | None = native.tool_programs().get(tool.value)
    return program


def _tool_names() -> list[str]:
    return [t.name for t in Tool]


def check_tool_available(tool: Tool) -> None:
    """Raises when ``tool`` cannot run here: :class:`NotSupportedError` when this build lacks
    it, :class:`NCUNotAvailableError` / :class:`ToolError` when its program is not on PATH."""
    available = _engine_tools()
    if tool.value not in available:
        listed = ", ".join(f"'{name}'" for name in available)
        raise NotSupportedError(
            f"tool '{tool.value}' is not available in this kscope build; available: {listed}."
        )
    program = _external_program(tool)
    if program is not None and shutil.which(program) is None:
        if tool is Tool.NCU:
            raise NCUNotAvailableError(NCU_NOT_AVAILABLE_MSG)
        raise ToolError(f"{program} is not on PATH; the {tool.value} tool needs it.")


def activate(tool: Tool) -> None:
    """Selects ``tool`` for every ``@kernel`` that does not name one.

    Activating the active tool again does nothing; activating a different one raises
    ``RuntimeError`` (one tool per process). The tool is checked first, and only selected when
    it can run here.
    """
    global _active_tool
    if not isinstance(tool, Tool):
        raise ValueError(
            f"tool must be a kscope.Tool member (one of {_tool_names()}), got {tool!r}"
        )
    if _active_tool is tool:
        return
    if _active_tool is not None:
        raise RuntimeError(
            f"Tool.{_active_tool.name} is already active; cannot switch to Tool.{tool.name}"
        )
    check_tool_available(tool)
    _active_tool = tool


def deactivate() -> None:
    """Clears the selection. Nsight Compute stays selected once activated (nsight-python's
    rule: it cannot be unloaded), which is reported as a ``RuntimeWarning``."""
    global _active_tool
    if _active_tool is Tool.NCU:
        warn(
            "NVIDIA Nsight Compute cannot be deactivated once loaded; it stays the active tool "
            "for the lifetime of the process.",
            RuntimeWarning,
        )
        return
    _active_tool = None


def get_active_tool() -> Tool | None:
    """The selected tool, or None when none was activated."""
    return _active_tool


def parse_tool(tool: Tool | str | None) -> Tool | None:
    """Validates a ``tool=`` argument: a :class:`Tool`, its value (``"ncu"``) or name
    (``"NCU"``), or None."""
    if tool is None or isinstance(tool, Tool):
        return tool
    if isinstance(tool, str):
        for member in Tool:
            if tool in (member.value, member.name):
                return member
    raise ValueError(
        f"Invalid tool {tool!r}. Expected a kscope.Tool member (one of {_tool_names()}) or one "
        f"of {[t.value for t in Tool]}."
    )


def resolve_tool(tool: Tool | None) -> Tool:
    """The tool a call uses: the decorator's, else the active one, else CUPTI."""
    if tool is not None:
        return tool
    return _active_tool if _active_tool is not None else Tool.CUPTI


__all__ = ["Tool", "ToolName", "activate", "deactivate", "get_active_tool"]
