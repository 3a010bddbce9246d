#pragma once
/// @file timeline.hpp
/// When things happened in a session: the host phases of every run and the GPU start and end of
/// every kernel the tool timed, on one clock (the host's steady clock, CLOCK_MONOTONIC on Linux,
/// in nanoseconds). The trace writer (`--format trace`) draws them; docs/output-schema.md
/// documents how they are saved ("timeline" in results, "phases" in journal lines). A Timeline
/// holds its spans packed (SpanList), about 56 bytes each.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kscope {

/// One interval of the host side of a session.
struct PhaseSpan {
  /// "environment before" (info collectors, tool memory save/restore, thermal guard, telemetry),
  /// "tool before", "benchmark", "synchronize", "tool after", "environment after", "journal"
  /// (tool flush and journal write, outside runs), "region entry" (inside "benchmark": the L2
  /// flush of cache_control "all" and ANNOTATION-scope info collectors).
  std::string phase;
  std::optional<std::size_t> config;  ///< index into Results::configs(); nullopt outside runs
  std::optional<std::size_t> run;     ///< run index within the config; nullopt outside runs
  bool warmup = false;                ///< a warm-up run (executed, never measured)
  int pass = 0;                       ///< replay pass of the run (0 without replay)
  std::string annotation;             ///< "region entry": the region entered; "" otherwise
  std::int64_t start_ns = 0;          ///< host steady clock, ns
  std::int64_t end_ns = 0;            ///< host steady clock, ns
  std::size_t part = 0;               ///< index into Timeline::parts (0 in one process's)
  friend bool operator==(const PhaseSpan& a, const PhaseSpan& b) {
    return a.phase == b.phase && a.config == b.config && a.run == b.run && a.warmup == b.warmup &&
           a.pass == b.pass && a.annotation == b.annotation && a.start_ns == b.start_ns &&
           a.end_ns == b.end_ns && a.part == b.part;
  }
};

/// One kernel as the tool timed it on the GPU (tool "cupti" without counters).
struct KernelSpan {
  std::string annotation;
  std::string kernel;                  ///< demangled base name
  std::size_t config = 0;              ///< index into Results::configs()
  std::size_t run = 0;                 ///< run index within the config
  bool warmup = false;                 ///< launched in a warm-up run
  int device = 0;                      ///< CUDA ordinal
  std::optional<std::uint32_t> stream; ///< CUDA stream id as CUPTI reports it
  std::int64_t start_ns = 0;           ///< GPU start, on the host steady clock, ns
  std::int64_t end_ns = 0;             ///< GPU end, on the host steady clock, ns
  std::size_t part = 0;                ///< index into Timeline::parts (0 in one process's)
  friend bool operator==(const KernelSpan& a, const KernelSpan& b) {
    return a.annotation == b.annotation && a.kernel == b.kernel && a.config == b.config &&
           a.run == b.run && a.warmup == b.warmup && a.device == b.device && a.stream == b.stream &&
           a.start_ns == b.start_ns && a.end_ns == b.end_ns && a.part == b.part;
  }
};

namespace detail {

/// The distinct texts of a SpanList (phase, annotation and kernel names), each stored once.
class SpanNames {
 public:
  /// The index of `name`, added when new.
  std::uint32_t id(const std::string& name);
  [[nodiscard]] const std::string& name(std::uint32_t id) const { return names_[id]; }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, std::uint32_t> ids_;
};

/// How a SpanList stores one span (timeline.cpp): its numbers as they are, its texts as indices
/// into the list's SpanNames. A phase: 24 bytes (128 as a struct), its run (config, run, warm-up,
/// pass, part) shared with the phases next to it of the same run (SpanGroups); a kernel: 64
/// bytes (120).
template <class Span>
struct PackedSpan;

template <>
struct PackedSpan<PhaseSpan> {
  std::int64_t start_ns;
  std::int64_t end_ns;
  std::uint32_t group;  // SpanGroups<PhaseSpan>::runs index
  std::uint32_t names;  // SpanGroups<PhaseSpan>::names index: the phase and the annotation
};

template <>
struct PackedSpan<KernelSpan> {
  std::int64_t start_ns;
  std::int64_t end_ns;
  std::uint64_t config;
  std::uint64_t run;
  std::uint64_t part;
  std::uint32_t annotation;  // SpanNames index
  std::uint32_t kernel;      // SpanNames index
  std::int32_t device;
  std::uint32_t stream;
  bool has_stream;
  bool warmup;
};

/// What the spans of a list share (nothing for kernels).
template <class Span>
struct SpanGroups {};

template <>
struct SpanGroups<PhaseSpan> {
  struct Run {
    std::uint64_t config;
    std::uint64_t run;
    std::uint64_t part;
    std::int32_t pass;
    bool warmup;
    bool has_config;
    bool has_run;
    friend bool operator==(const Run& a, const Run& b) {
      return a.config == b.config && a.run == b.run && a.part == b.part && a.pass == b.pass &&
             a.warmup == b.warmup && a.has_config == b.has_config && a.has_run == b.has_run;
    }
  };
  std::vector<Run> runs;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> names;  // phase, annotation (SpanNames)
  std::unordered_map<std::uint64_t, std::uint32_t> name_ids;    // phase << 32 | annotation
};

}  // namespace detail

/// The spans of a timeline, stored packed (a sweep of a million runs has seven million phases):
/// a read-only sequence of PhaseSpan or KernelSpan values, each made when read, in the order
/// they were added. Reads like a std::vector of them (size, [], iteration, ==); add with
/// push_back.
template <class Span>
class SpanList {
 public:
  using value_type = Span;
  using size_type = std::size_t;
  using reference = Span;  // spans are made when read
  using const_reference = Span;

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = Span;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Span;
    const_iterator() = default;
    const_iterator(const SpanList* list, std::size_t at) : list_(list), at_(at) {}
    Span operator*() const { return (*list_)[at_]; }
    Span operator[](difference_type n) const { return (*list_)[at_ + static_cast<std::size_t>(n)]; }
    const_iterator& operator++() { ++at_; return *this; }
    const_iterator operator++(int) { auto was = *this; ++at_; return was; }
    const_iterator& operator--() { --at_; return *this; }
    const_iterator operator--(int) { auto was = *this; --at_; return was; }
    const_iterator& operator+=(difference_type n) { at_ += static_cast<std::size_t>(n); return *this; }
    const_iterator& operator-=(difference_type n) { at_ -= static_cast<std::size_t>(n); return *this; }
    friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
    friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
    friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.at_) - static_cast<difference_type>(b.at_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.at_ == b.at_; }
    friend bool operator!=(const const_iterator& a, const const_iterator& b) { return a.at_ != b.at_; }
    friend bool operator<(const const_iterator& a, const const_iterator& b) { return a.at_ < b.at_; }
    friend bool operator>(const const_iterator& a, const const_iterator& b) { return a.at_ > b.at_; }
    friend bool operator<=(const const_iterator& a, const const_iterator& b) { return a.at_ <= b.at_; }
    friend bool operator>=(const const_iterator& a, const const_iterator& b) { return a.at_ >= b.at_; }

   private:
    const SpanList* list_ = nullptr;
    std::size_t at_ = 0;
  };
  using iterator = const_iterator;

  SpanList() = default;
  SpanList(std::initializer_list<Span> spans) : SpanList(spans.begin(), spans.end()) {}
  template <class It>
  SpanList(It first, It last) {
    if constexpr (std::is_base_of_v<std::random_access_iterator_tag,
                                    typename std::iterator_traits<It>::iterator_category>) {
      reserve(static_cast<std::size_t>(last - first));
    }
    for (; first != last; ++first) push_back(*first);
  }

  [[nodiscard]] std::size_t size() const { return spans_.size(); }
  [[nodiscard]] bool empty() const { return spans_.empty(); }
  void reserve(std::size_t n) { spans_.reserve(n); }
  void clear() { spans_.clear(); }
  void push_back(const Span& span);
  [[nodiscard]] Span operator[](std::size_t i) const;
  /// Span `i`; std::out_of_range beyond the end.
  [[nodiscard]] Span at(std::size_t i) const;
  [[nodiscard]] Span front() const { return (*this)[0]; }
  [[nodiscard]] Span back() const { return (*this)[size() - 1]; }
  [[nodiscard]] const_iterator begin() const { return {this, 0}; }
  [[nodiscard]] const_iterator end() const { return {this, size()}; }

  friend bool operator==(const SpanList& a, const SpanList& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!(a[i] == b[i])) return false;
    }
    return true;
  }
  friend bool operator!=(const SpanList& a, const SpanList& b) { return !(a == b); }

 private:
  std::vector<detail::PackedSpan<Span>> spans_;
  detail::SpanNames names_;
  detail::SpanGroups<Span> groups_;
};

/// The host phases of a timeline.
using PhaseSpans = SpanList<PhaseSpan>;
/// The kernels of a timeline.
using KernelSpans = SpanList<KernelSpan>;

// How each kind of span is packed and made again (timeline.cpp).
template <>
void SpanList<PhaseSpan>::push_back(const PhaseSpan& span);
template <>
PhaseSpan SpanList<PhaseSpan>::operator[](std::size_t i) const;
template <>
void SpanList<KernelSpan>::push_back(const KernelSpan& span);
template <>
KernelSpan SpanList<KernelSpan>::operator[](std::size_t i) const;
extern template class SpanList<PhaseSpan>;
extern template class SpanList<KernelSpan>;

/// Everything timed in a session. Empty for results saved before kscope recorded it, and for
/// tools that do not time kernels in process (ncu, sanitizer: no kernel spans).
struct Timeline {
  PhaseSpans phases;    ///< in the order recorded (a merge: part by part)
  KernelSpans kernels;  ///< in launch order (a merge: part by part)
  /// kscope::merge: the process each span's `part` indexes, named by its rank and file, e.g.
  /// "rank 1: shard-1.json". Each part's times are on its own host's clock. Empty in the
  /// timeline of one process (every span's part is 0).
  std::vector<std::string> parts;
  [[nodiscard]] bool empty() const { return phases.empty() && kernels.empty(); }
};

}  // namespace kscope
