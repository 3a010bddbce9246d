"""Headless Chromium for the output tests: open a local page, collect what it did.

``chromium`` (Debian package ``chromium``) is optional: :func:`chromium` returns None without it
and the tests skip with the reason. Background traffic of the browser itself (updates, time
sync) is told apart from the page's requests by the network isolation key, which is the page's
``file://`` origin for everything the page loads.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--no-default-browser-check", "--hide-scrollbars",
    "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr", "--v=0",
]  # fmt: skip


def chromium() -> str | None:
    """The Chromium binary (``KSCOPE_CHROMIUM``, else ``chromium`` on PATH), or None."""
    return os.environ.get("KSCOPE_CHROMIUM") or shutil.which("chromium")


SKIP_REASON = "needs Chromium (apt-get install chromium) for the headless-browser checks"


@dataclass
class PageRun:
    dom: str              #: the DOM after load (--dump-dom)
    console: list[str]    #: console messages and page errors, one line each
    requests: list[str]   #: URLs the page asked the network for (not file://)


def _page_requests(net_log: str) -> list[str]:
    with open(net_log, encoding="utf-8") as f:
        log = json.load(f)
    urls: dict[int, str] = {}
    page: set[int] = set()
    for e in log.get("events", []):
        params = e.get("params", {})
        source = e.get("source", {}).get("id")
        if "url" in params:
            urls.setdefault(source, params["url"])
        if "file://" in str(params.get("network_isolation_key", "")):
            page.add(source)
    return sorted({urls[s] for s in page if s in urls and not urls[s].startswith("file:")})


def open_page(path: str) -> PageRun:
    """Loads the local file `path` in headless Chromium (no network: every host name fails to
    resolve) and returns its DOM, console lines and network requests."""
    binary = chromium()
    assert binary, SKIP_REASON
    with tempfile.TemporaryDirectory() as tmp:
        net_log = os.path.join(tmp, "net.json")
        proc = subprocess.run(
            [binary, *_FLAGS, f"--user-data-dir={tmp}/profile", f"--log-net-log={net_log}",
             "--dump-dom", "file://" + os.path.abspath(path)],
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
        console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]
        return PageRun(proc.stdout, console, _page_requests(net_log))


def screenshot(path: str, png: str, width: int, height: int) -> None:
    """Saves a `width` x `height` screenshot of the local file `path` to `png`."""
    binary = chromium()
    assert binary, SKIP_REASON
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [binary, *_FLAGS, f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}",
             f"--screenshot={os.path.abspath(png)}", "file://" + os.path.abspath(path)],
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
