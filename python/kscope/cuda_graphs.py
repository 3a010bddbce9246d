"""``cuda_graph=True``: how the Python front captures an annotated region into a CUDA graph and
launches it again. The engine decides when (docs/options.md, "CUDA graphs"): per config, the
first measured execution of the function captures every region and launches it once, the later
ones launch the captured regions again instead of calling the function.

PyTorch's ``torch.cuda.CUDAGraph`` captures, so that torch's caching allocator and streams take
part as under ``torch.cuda.graph``: the region runs on a side stream while it is captured (after
the work launched before it on the current stream), and its graph is launched on the current
stream, inside the region's annotation."""

from __future__ import annotations

from typing import Any

from .exceptions import NotSupportedError


class TorchRegionCapture:
    """The engine's ``region_capture_*`` callbacks for one ``@kernel`` call, on top of torch."""

    def __init__(self) -> None:
        try:
            import torch
        except ImportError as e:
            raise NotSupportedError(
                "cuda_graph=True captures the annotated regions with PyTorch "
                f"(torch.cuda.CUDAGraph), and torch cannot be imported ({e}). Install torch, or "
                "leave cuda_graph False (in C++, kscope::stream_region_capture captures the "
                "kernels of a stream)."
            ) from None
        self._torch = torch
        self._graphs: list[Any] = []  # the config's captured regions, in order
        self._stream: Any = None  # the side stream regions are captured on
        self._capturing: Any = None  # (graph, stream context) of the region being captured

    def apply(self, options: Any) -> None:
        """Sets the engine ``options``' callbacks to this capture's."""
        options.region_capture_begin = self.begin
        options.region_capture_end = self.end
        options.region_capture_replay = self.replay
        options.region_capture_clear = self.clear

    def begin(self, name: str) -> None:
        """Region ``name`` opens: capture what it launches on torch's current stream."""
        del name  # every region is captured the same way
        torch = self._torch
        if self._stream is None:
            self._stream = torch.cuda.Stream()
        self._stream.wait_stream(torch.cuda.current_stream())  # inputs written before the region
        graph = torch.cuda.CUDAGraph()
        context = torch.cuda.stream(self._stream)
        context.__enter__()
        try:
            graph.capture_begin()
        except BaseException:
            context.__exit__(None, None, None)
            raise
        self._capturing = (graph, context)

    def end(self, failed: bool) -> None:
        """The region closes: stop capturing and, unless it failed, launch its graph once."""
        graph, context = self._capturing
        self._capturing = None
        try:
            graph.capture_end()
        except BaseException:
            self._end_aborted_capture()
            if not failed:  # a failed region's own exception says more than the capture's
                raise
        finally:
            context.__exit__(None, None, None)
        if not failed:
            graph.replay()
            self._graphs.append(graph)

    def _end_aborted_capture(self) -> None:
        """After a capture the region invalidated (a host synchronisation), torch's capture_end
        raised before it told torch's CUDA generators the capture was over, and every later
        random draw of the process would fail ("Offset increment outside graph capture"): an
        empty capture ends theirs."""
        import warnings

        empty = self._torch.cuda.CUDAGraph()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch warns that the graph is empty
            empty.capture_begin()
            empty.capture_end()

    def replay(self, index: int) -> None:
        """Launches the config's captured region ``index`` again."""
        self._graphs[index].replay()

    def clear(self) -> None:
        """The config's graphs (and the memory they hold) are no longer needed."""
        self._graphs.clear()


__all__ = ["TorchRegionCapture"]
