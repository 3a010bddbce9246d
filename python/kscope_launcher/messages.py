"""How the ``kscope`` command reports on stderr, the same lines as the engine's executable
(cli/diagnostics.cpp): ``kscope: warning: ...``, ``kscope: error: ...`` and usage errors (the
error line and ``Run 'kscope <subcommand> --help' for usage.``), the words ``warning:`` and
``error:`` coloured by the colour rule (:mod:`kscope_launcher.colour`)."""

from __future__ import annotations

import sys

from .colour import RED, YELLOW, tinted


def print_warning(message: str) -> None:
    """``kscope: warning: <message>`` on stderr."""
    print(f"kscope: {tinted('warning:', YELLOW, sys.stderr)} {message}", file=sys.stderr)


def print_error(message: str) -> None:
    """``kscope: error: <message>`` on stderr."""
    print(f"kscope: {tinted('error:', RED, sys.stderr)} {message}", file=sys.stderr)


def print_usage_error(message: str, command: str) -> None:
    """The error line and where the usage is (``command``: the subcommand, "" for none)."""
    print_error(message)
    print(f"Run 'kscope {command + ' ' if command else ''}--help' for usage.", file=sys.stderr)


__all__ = ["print_error", "print_usage_error", "print_warning"]
