#pragma once
// A view of consecutive `const T*` held by a vector elsewhere: the rows of one group of a table,
// the kernels of one run of an annotation. It does not own them.

#include <cstddef>

namespace kscope {

template <class T>
class PointerRange {
 public:
  PointerRange() = default;
  PointerRange(const T* const* first, std::size_t size) : first_(first), size_(size) {}

  [[nodiscard]] const T* const* begin() const { return first_; }
  [[nodiscard]] const T* const* end() const { return first_ + size_; }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] const T* operator[](std::size_t i) const { return first_[i]; }
  [[nodiscard]] const T* front() const { return first_[0]; }

 private:
  const T* const* first_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace kscope
