"""Faults of the disk under the journal (docs/faults.md): a full disk, a removed output
directory and a read-only one, through the engine's real session and journal without a device
(``_kscope._test_profile_without_device``). The full and read-only disks are small tmpfs mounts;
without the right to mount (not root) those tests skip and say so."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import kscope
from kscope._native import native
from kscope.exceptions import FileFormatWarning, ProfilerException

SILENT = kscope.VerbosityLevel.SILENT
CONFIGS = [1, 2, 3, 4, 5, 6]


@pytest.fixture
def cpu_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """profile() through the engine's real session without a device."""
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)


def _mount_tmpfs(where: Path, options: str) -> Iterator[Path]:
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                          capture_output=True, text=True)  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs."""
    yield from _mount_tmpfs(tmp_path / "disk", "size=256k")


def _sweep(prefix: Path, at_n3: Callable[[], None] = lambda: None, **options: object) -> object:
    """Six configs of two runs; each config takes over 0.1 s, so each is journaled as it ends.
    `at_n3` runs in config n=3's first run."""

    @kscope.analyze.kernel(configs=CONFIGS, runs=2, output_prefix=f"{prefix}/", verbosity=SILENT,
                           thermal_mode="off", **options)  # fmt: skip
    def bench(n: int) -> None:
        with kscope.annotate("step"):
            pass
        time.sleep(0.06)  # the journal's thread meanwhile writes the configs before
        if n == 3 and not getattr(bench, "done", False):
            bench.done = True  # type: ignore[attr-defined]
            at_n3()

    return bench()


def _fill(disk: Path) -> None:
    """Writes a file until the disk is full."""
    with open(disk / "filler", "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"x" * 4096)
        except OSError as e:
            assert e.errno == errno.ENOSPC


def _lines(path: Path) -> list[dict[str, object]]:
    text = path.read_text()
    assert text.endswith("\n"), "a partial line stayed on disk"
    return [json.loads(line) for line in text.splitlines()]


def test_a_full_disk_stops_the_sweep_with_enospc_and_keeps_what_was_journaled(
    cpu_engine: None, small_disk: Path
) -> None:
    journal = small_disk / "journal-bench-0.jsonl"
    with pytest.raises(ProfilerException) as caught:
        _sweep(small_disk, lambda: _fill(small_disk))
    assert str(caught.value) == (
        f"cannot write the journal '{journal}': No space left on device (ENOSPC). The sweep "
        "stopped; the runs journaled before are kept and load. Free space or choose another "
        "output_prefix, then pass the journal as resume= to measure the rest.")  # fmt: skip
    # Every line on disk is whole: the one that hit the full disk was cut off. The journal's
    # last page had room for a few more lines after the filler took the rest.
    kinds = [line["kind"] for line in _lines(journal)]
    assert kinds[:2] == ["kscope.journal", "names"] and set(kinds[2:]) <= {"names", "runs"}, kinds
    loaded = kscope.load(str(journal))
    measured = list(loaded.to_dataframe()["n"])
    assert measured == CONFIGS[: len(measured)] and 3 <= len(measured) < 6, measured
    assert loaded.complete is False

    # The next step: room again, and resume measures the rest.
    (small_disk / "filler").unlink()
    resumed = _sweep(small_disk, resume=str(journal))
    df = resumed.to_dataframe()  # type: ignore[attr-defined]
    assert list(df["n"]) == CONFIGS
    assert list(df["NumRuns"]) == [2] * 6


def test_a_line_cut_short_by_the_fault_is_skipped_with_a_warning(
    cpu_engine: None, tmp_path: Path
) -> None:
    _sweep(tmp_path)
    journal = tmp_path / "journal-bench-0.jsonl"
    lines = journal.read_text().splitlines()
    # What a crash or full disk in the middle of the "end" line's write leaves.
    journal.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:9])
    with pytest.warns(FileFormatWarning) as caught:
        loaded = kscope.load(str(journal))
    assert [str(w.message) for w in caught] == [
        f"journal '{journal}': line {len(lines)} is cut short (the process ended while writing "
        "it) (the line was skipped; the result lacks what it held)"]  # fmt: skip
    assert list(loaded.to_dataframe()["n"]) == CONFIGS


def test_a_removed_output_directory_stops_the_sweep_naming_the_journal(
    cpu_engine: None, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    journal = out / "journal-bench-0.jsonl"
    with pytest.raises(ProfilerException) as caught:
        _sweep(out, lambda: shutil.rmtree(out))
    assert str(caught.value).startswith(
        f"cannot write the journal '{journal}': the file was deleted while the sweep ran "
        "(ENOENT). The sweep stopped;")  # fmt: skip
    assert not out.exists()
    # The next step: a sweep into a directory that exists works.
    again = _sweep(tmp_path / "again")
    assert list(again.to_dataframe()["n"]) == CONFIGS  # type: ignore[attr-defined]


def test_a_read_only_output_directory_fails_before_any_run(
    cpu_engine: None, tmp_path: Path
) -> None:
    # An open journal cannot become read-only (the kernel refuses to remount a file system
    # read-only while a file is open for writing), so a read-only disk is met at the start.
    for disk in _mount_tmpfs(tmp_path / "ro", "ro,size=64k"):
        calls: list[int] = []
        with pytest.raises(ProfilerException) as caught:
            _sweep(disk, lambda: calls.append(3))
        assert str(caught.value) == (
            f"cannot write the journal '{disk}/journal-bench-0.jsonl': Read-only file system. "
            "Choose a writable output_prefix.")  # fmt: skip
        assert calls == [] and os.listdir(disk) == []
