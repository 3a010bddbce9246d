#pragma once
// Kernel records a journal line reads on the journal's thread: a run of records in a vector the
// line shares (owns together with whoever made it), read-only. The line keeps them alive for as
// long as it reads them, so nobody has to wait for the journal before they go, and records the
// caller keeps are handed over without a copy (Session::Output's, the session's last line).

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "core/kernel_record.hpp"

namespace kscope {

class RecordSlice {
 public:
  RecordSlice() = default;
  /// The records of `records` from `first` on (all of them by default), shared.
  explicit RecordSlice(std::shared_ptr<const std::vector<KernelRecord>> records,
                       std::size_t first = 0)
      : records_(std::move(records)), first_(first) {}
  /// A copy of `records`, for a caller that keeps (and may change) its own.
  [[nodiscard]] static RecordSlice copy_of(const std::vector<KernelRecord>& records) {
    return RecordSlice(std::make_shared<const std::vector<KernelRecord>>(records));
  }

  [[nodiscard]] const KernelRecord* begin() const {
    return records_ ? records_->data() + first_ : nullptr;
  }
  [[nodiscard]] const KernelRecord* end() const {
    return records_ ? records_->data() + records_->size() : nullptr;
  }
  [[nodiscard]] std::size_t size() const { return records_ ? records_->size() - first_ : 0; }
  [[nodiscard]] bool empty() const { return size() == 0; }
  [[nodiscard]] const KernelRecord& operator[](std::size_t i) const { return begin()[i]; }

 private:
  std::shared_ptr<const std::vector<KernelRecord>> records_;
  std::size_t first_ = 0;
};

}  // namespace kscope
