#pragma once
/// @file annotation.hpp
/// Annotations mark the regions whose kernels kscope measures. An annotation is an NVTX
/// start/end range in the domain "kscope" (so ncu and nsys see it too); every kernel launched
/// while it is open, from any thread of the process, belongs to it.

#include <functional>
#include <string>
#include <string_view>

namespace kscope {

/// The NVTX domain of kscope's annotations.
inline constexpr const char* kNvtxDomain = "kscope";

/// Opens annotation `name`. Throws kscope::AnnotationError when another annotation is open
/// (anywhere in the process: nesting is not supported) or when `name` was already used in the
/// current run. Prefer the RAII kscope::Annotation.
void begin_annotation(std::string_view name);

/// Closes the open annotation. `failed` records this run of it as failed: its values become NaN
/// and its kernel count is not checked. Does nothing when no annotation is open.
void end_annotation(bool failed = false);

/// Name of the open annotation, or "" when none is open.
[[nodiscard]] std::string current_annotation();

/**
 * RAII annotation.
 *
 * @code
 *   {
 *     kscope::Annotation range("vadd");
 *     vadd<<<blocks, 256>>>(a, b, c, n);
 *   }   // range closed here
 * @endcode
 *
 * If the scope is left by an exception, the run of this annotation is recorded as failed
 * (NaN) and the exception propagates. To swallow it instead, use kscope::annotate with
 * ignore_failures = true.
 */
class Annotation {
 public:
  explicit Annotation(std::string_view name);
  ~Annotation();
  Annotation(const Annotation&) = delete;             // non-copyable
  Annotation& operator=(const Annotation&) = delete;  // non-copyable

 private:
  int uncaught_at_entry_;
};

/// Runs `fn` inside annotation `name`. With ignore_failures, an exception thrown by `fn` is
/// swallowed and the run is recorded as NaN; otherwise it propagates.
void annotate(std::string_view name, const std::function<void()>& fn,
              bool ignore_failures = false);

}  // namespace kscope

#define KSCOPE_DETAIL_CONCAT2(a, b) a##b
#define KSCOPE_DETAIL_CONCAT(a, b) KSCOPE_DETAIL_CONCAT2(a, b)
/// Macro form: `KSCOPE_ANNOTATE("vadd");` opens an annotation until the end of the scope.
#define KSCOPE_ANNOTATE(name) \
  ::kscope::Annotation KSCOPE_DETAIL_CONCAT(kscope_annotation_, __LINE__)(name)
