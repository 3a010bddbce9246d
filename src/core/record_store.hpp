#pragma once
// A session's kernel records (Session::Output::records): appended while it runs, then shared
// read-only with the journal line that writes the last of them on the journal's thread
// (share()). The line owns what it reads together with the output, so that whoever ends the
// session need not wait for the journal first, and nothing is copied. A change after share()
// changes a copy of its own, never what a line reads.

#include <cstddef>
#include <memory>
#include <vector>

#include "core/kernel_record.hpp"
#include "core/record_slice.hpp"

namespace kscope {

class RecordStore {
 public:
  RecordStore() = default;
  RecordStore(std::vector<KernelRecord> records);  // NOLINT: a store of these records
  RecordStore(const RecordStore& other);             // a copy of the records
  RecordStore& operator=(const RecordStore& other);  // a copy of the records
  RecordStore(RecordStore&& other) noexcept = default;
  RecordStore& operator=(RecordStore&& other) noexcept = default;
  ~RecordStore() = default;

  /// The records, in the order they came.
  [[nodiscard]] const std::vector<KernelRecord>& all() const;
  [[nodiscard]] std::size_t size() const { return all().size(); }
  [[nodiscard]] bool empty() const { return all().empty(); }
  [[nodiscard]] std::vector<KernelRecord>::const_iterator begin() const { return all().begin(); }
  [[nodiscard]] std::vector<KernelRecord>::const_iterator end() const { return all().end(); }
  [[nodiscard]] const KernelRecord& operator[](std::size_t i) const { return all()[i]; }

  void push_back(KernelRecord record) { own().push_back(std::move(record)); }
  void reserve(std::size_t n) { own().reserve(n); }

  /// The records from `first` on, shared read-only with the caller (a journal line): from now
  /// on a change copies them first.
  [[nodiscard]] RecordSlice share(std::size_t first);
  /// The records, moved out; a copy when they were shared.
  [[nodiscard]] std::vector<KernelRecord> take() &&;

 private:
  // The records to change: a copy of their own first when they were shared.
  std::vector<KernelRecord>& own();

  std::shared_ptr<std::vector<KernelRecord>> records_;  // null: none
  bool shared_ = false;  // share() handed them out: they never change in place again
};

}  // namespace kscope
