#include "core/interrupt_check.hpp"

#include <functional>
#include <mutex>
#include <utility>

#include "kscope/profile.hpp"

namespace kscope {
namespace {

std::mutex& check_mutex() {
  static std::mutex mu;
  return mu;
}

std::function<void()>& the_check() {
  static std::function<void()> check;
  return check;
}

}  // namespace

void set_interrupt_check(std::function<void()> check) {
  std::lock_guard<std::mutex> lock(check_mutex());
  the_check() = std::move(check);
}

void check_interrupt() {
  std::function<void()> check;
  {
    std::lock_guard<std::mutex> lock(check_mutex());
    check = the_check();
  }
  if (check) check();
}

}  // namespace kscope
