"""``python3 -m kscope``: the ``kscope`` command, as the console script runs it
(:func:`kscope_launcher.main`; docs/cli.md)."""

from __future__ import annotations

import sys

from kscope_launcher import main

if __name__ == "__main__":
    sys.exit(main())

__all__ = ["main"]
