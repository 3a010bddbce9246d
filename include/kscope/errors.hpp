#pragma once
/// @file errors.hpp
/// The exception hierarchy of kscope. Every error kscope raises derives from kscope::Error and
/// says what failed, the offending value and what the user can do about it. The Python layer maps
/// each class to an exception in `kscope.exceptions` (see docs/errors.md).

#include <stdexcept>
#include <string>
#include <utility>

namespace kscope {

/// Base of every kscope error.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An option, metric name or argument has an invalid value (Python: ValueError).
class InvalidArgument : public Error {
 public:
  using Error::Error;
};

/// The configurations handed to profile() are unusable (Python: ProfilerException).
class ConfigError : public Error {
 public:
  using Error::Error;
};

/// A file kscope reads (result JSON, journal, ncu CSV) is malformed. The message
/// names the file, the line or JSON path, what was expected and what was found
/// (Python: FileFormatError, a ValueError).
class FileFormatError : public Error {
 public:
  using Error::Error;
};

/// Misuse of annotations: nesting or a name reused within one run (Python: ValueError).
class AnnotationError : public Error {
 public:
  using Error::Error;
};

/// The measured kernels cannot be mapped to (annotation, config, run): wrong kernel counts,
/// several kernels in one annotation, nothing profiled (Python: RuntimeError).
class ExtractionError : public Error {
 public:
  using Error::Error;
};

/// No usable CUDA device or driver. The message starts with "no CUDA device: ".
class NoDeviceError : public Error {
 public:
  using Error::Error;
};

/// A capability is not available with the chosen tool or build (e.g. a metric the cupti tool
/// cannot collect, clock control with the cupti tool). The message names the alternative.
class NotSupportedError : public Error {
 public:
  using Error::Error;
};

/// An external tool (ncu, compute-sanitizer, another CUPTI client) is missing, busy or failed.
class ToolError : public Error {
 public:
  using Error::Error;
};

/// The Nsight Compute CLI (ncu) cannot be found for tool "ncu" (Python: NCUNotAvailableError).
class NcuNotAvailableError : public ToolError {
 public:
  using ToolError::ToolError;
};

/// A CUPTI call failed. code() is the CUptiResult value.
class CuptiError : public ToolError {
 public:
  CuptiError(const std::string& what, int code) : ToolError(what), code_(code) {}
  [[nodiscard]] int code() const noexcept { return code_; }

 private:
  int code_;
};

/// Thermal control could not do its job (Python: ThermalControlError).
class ThermalControlError : public Error {
 public:
  using Error::Error;
};

/// The GPU did not cool down within thermal_timeout (Python: CoolingTimeoutError).
class CoolingTimeoutError : public ThermalControlError {
 public:
  using ThermalControlError::ThermalControlError;
};

/// Thrown by a benchmark to end the sweep even with Options::on_config_error "skip" (the Python
/// front throws it for KeyboardInterrupt and SystemExit, which then reach the caller unchanged).
class SweepInterrupted : public Error {
 public:
  using Error::Error;
};

/// An exception of the benchmark described by its type name and text; the Python front throws it
/// for a Python exception with Options::on_config_error "skip", so the failure record names the
/// Python type ("ValueError") rather than the C++ one.
class BenchmarkError : public Error {
 public:
  BenchmarkError(std::string type, const std::string& message)
      : Error(message), type_(std::move(type)) {}
  /// The exception's type name, e.g. "ValueError".
  [[nodiscard]] const std::string& type() const { return type_; }

 private:
  std::string type_;
};

}  // namespace kscope
