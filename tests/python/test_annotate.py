"""kscope.annotate and kscope.analyze.ignore_failures. Annotations are the engine's registry,
which works without a GPU; duplicate names within one run need a session (GPU tests)."""

from __future__ import annotations

import pytest

import kscope
from kscope._native import native
from kscope.exceptions import AnnotationError


@pytest.fixture
def ended(monkeypatch):
    """Records the `failed` flag of every end_annotation call."""
    calls = []
    real = native.end_annotation

    def spy(failed=False):
        calls.append(failed)
        real(failed)

    monkeypatch.setattr(native, "end_annotation", spy)
    return calls


def test_context_manager_opens_and_closes():
    with kscope.annotate("outer") as a:
        assert native.current_annotation() == "outer"
        assert a.name == "outer"
    assert native.current_annotation() == ""


def test_nested_annotations_are_refused():
    with kscope.annotate("outer"):
        with pytest.raises(ValueError, match=r"^Nested annotations are not supported\. Cannot "
                           r"enter annotation 'inner' while another annotation is active"):  # fmt: skip
            with kscope.annotate("inner"):
                pass
        assert native.current_annotation() == "outer"
    assert native.current_annotation() == ""


def test_nested_error_is_an_annotation_error():
    with kscope.annotate("outer"):
        with pytest.raises(AnnotationError):
            kscope.annotate("inner").__enter__()


def test_decorated_function_inside_an_annotation_is_nested():
    @kscope.annotate("inner")
    def inner():
        pass

    with kscope.annotate("outer"):
        with pytest.raises(ValueError, match="Nested annotations are not supported"):
            inner()


def test_decorator_form_wraps_every_call(ended):
    @kscope.annotate("region")
    def work(x):
        assert native.current_annotation() == "region"
        return x * 2

    assert work(3) == 6
    assert work.__name__ == "work"
    assert ended == [False]


def test_exception_propagates_and_marks_the_run_failed(ended):
    with pytest.raises(RuntimeError, match="boom"):
        with kscope.annotate("a"):
            raise RuntimeError("boom")
    assert ended == [True]
    assert native.current_annotation() == ""


def test_ignore_failures_swallows_and_marks_failed(ended):
    with pytest.warns(RuntimeWarning, match=r"Annotation 'a' ignored an exception "
                      r"\(RuntimeError: boom\)"):  # fmt: skip
        with kscope.annotate("a", ignore_failures=True):
            raise RuntimeError("boom")
    assert ended == [True]


def test_ignore_failures_as_decorator(ended):
    @kscope.annotate("a", ignore_failures=True)
    def fails():
        raise ValueError("x")

    with pytest.warns(RuntimeWarning):
        assert fails() is None
    assert ended == [True]


def test_ignore_failures_lets_keyboard_interrupt_through(ended):
    with pytest.raises(KeyboardInterrupt):
        with kscope.annotate("a", ignore_failures=True):
            raise KeyboardInterrupt
    assert ended == [True]


def test_name_must_be_a_string():
    with pytest.raises(TypeError, match="annotation name must be a str"):
        kscope.annotate(3)


def test_analyze_ignore_failures_swallows_exceptions():
    with kscope.analyze.ignore_failures():
        raise RuntimeError("ignored")


def test_analyze_ignore_failures_keeps_keyboard_interrupt():
    with pytest.raises(KeyboardInterrupt):
        with kscope.analyze.ignore_failures():
            raise KeyboardInterrupt


def test_an_empty_name_is_refused_and_the_next_annotation_opens():
    with pytest.raises(AnnotationError, match=r"^Invalid annotation name '': an annotation needs a "
                       r"non-empty name \(it becomes the Annotation column\)\.$"):  # fmt: skip
        with kscope.annotate(""):
            pass
    with kscope.annotate("next"):
        assert native.current_annotation() == "next"


def test_a_name_with_a_nul_is_an_annotation_error():
    # It reached the tables and CSV (issue 38).
    with pytest.raises(AnnotationError) as info:
        with kscope.annotate("a\0b"):
            pass
    assert str(info.value) == (
        "Invalid annotation name 'a\\x00b': it contains a NUL character (at position 1), which "
        "NVTX, the tables and CSV cannot carry. Rename it."
    )
    assert native.current_annotation() == ""


def test_a_name_that_is_no_text_is_an_annotation_error():
    with pytest.raises(AnnotationError, match=r"^Invalid annotation name '\\udcff': it is not valid "
                       r"text \(surrogates not allowed at position 0\); annotation names must be "
                       r"encodable as UTF-8\.$"):  # fmt: skip
        kscope.annotate("\udcff")


def test_an_annotation_left_open_in_a_run_is_warned_about_once(monkeypatch, tmp_path):
    # It gave a row of 0 runs and no word (issue 38).
    monkeypatch.setattr(native, "profile", native._test_profile_without_device)

    @kscope.analyze.kernel(configs=[1, 2], runs=2, output_prefix=f"{tmp_path}/",
                           verbosity=kscope.VerbosityLevel.SILENT, thermal_mode="off")  # fmt: skip
    def bench(n):
        kscope.annotate("left").__enter__()

    with pytest.warns(RuntimeWarning) as caught:
        results = bench()
    texts = [str(w.message) for w in caught if "still open" in str(w.message)]
    assert texts == [
        "annotation 'left' was still open when run 0 of config 0 (n=1) returned; kscope closed "
        "it and recorded that run of it as failed (NaN, 0 runs). Close every annotation inside "
        "the benchmark (end_annotation, or a scope: kscope::Annotation, Python's `with "
        "kscope.annotate(...)`)."
    ]
    assert list(results.to_dataframe()["NumRuns"]) == [0, 0]
    assert native.current_annotation() == ""
