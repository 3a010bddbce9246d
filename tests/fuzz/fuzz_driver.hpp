#pragma once
// The interface of kscope's fuzz targets: libFuzzer's entry point. Each target feeds the bytes to
// one parser; a kscope::Error is the expected answer to bad input and is swallowed by the target;
// anything else escaping (another exception, a crash, a sanitizer report) is a finding.
// fuzz_main.cpp drives a target without libFuzzer (GCC has none): it mutates seed files for a
// bounded time (tests/fuzz/README.md).

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);
