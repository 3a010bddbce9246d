"""The exit statuses the Python side of the ``kscope`` command returns, the engine's own
(cli/exit_status.hpp; the table is docs/cli.md's)."""

from __future__ import annotations

EXIT_SUCCESS = 0
#: An error reported on one line ``kscope: error: ...``.
EXIT_ERROR = 1
#: The command line is wrong, whatever the files hold.
EXIT_USAGE = 2

__all__ = ["EXIT_ERROR", "EXIT_SUCCESS", "EXIT_USAGE"]
