#include "core/record_store.hpp"

#include <utility>

namespace kscope {

RecordStore::RecordStore(std::vector<KernelRecord> records)
    : records_(std::make_shared<std::vector<KernelRecord>>(std::move(records))) {}

RecordStore::RecordStore(const RecordStore& other)
    : records_(other.records_ ? std::make_shared<std::vector<KernelRecord>>(*other.records_)
                              : nullptr) {}

RecordStore& RecordStore::operator=(const RecordStore& other) {
  if (this != &other) *this = RecordStore(other);
  return *this;
}

const std::vector<KernelRecord>& RecordStore::all() const {
  static const std::vector<KernelRecord> kNone;
  return records_ ? *records_ : kNone;
}

std::vector<KernelRecord>& RecordStore::own() {
  if (!records_) {
    records_ = std::make_shared<std::vector<KernelRecord>>();
  } else if (shared_) {
    records_ = std::make_shared<std::vector<KernelRecord>>(*records_);
    shared_ = false;
  }
  return *records_;
}

RecordSlice RecordStore::share(std::size_t first) {
  shared_ = true;
  return RecordSlice(records_ ? std::shared_ptr<const std::vector<KernelRecord>>(records_)
                              : std::make_shared<const std::vector<KernelRecord>>(),
                     first);
}

std::vector<KernelRecord> RecordStore::take() && {
  if (!records_) return {};
  if (shared_) return *records_;
  return std::move(*records_);
}

}  // namespace kscope
