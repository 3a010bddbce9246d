#include "core/serial_worker.hpp"

#include <utility>

namespace kscope {

SerialWorker::SerialWorker() : thread_([this] { loop(); }) {}

SerialWorker::~SerialWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void SerialWorker::rethrow_locked(std::unique_lock<std::mutex>& lock) {
  if (!error_) return;
  std::exception_ptr e = std::exchange(error_, nullptr);
  lock.unlock();
  std::rethrow_exception(e);
}

void SerialWorker::post(std::function<void()> task) {
  defer(std::move(task));
  wake_.notify_one();
}

void SerialWorker::defer(std::function<void()> task) {
  std::unique_lock<std::mutex> lock(mu_);
  rethrow_locked(lock);
  if (failed_) return;
  tasks_.push_back(std::move(task));
}

void SerialWorker::wait() {
  std::unique_lock<std::mutex> lock(mu_);
  if (!tasks_.empty()) wake_.notify_one();  // deferred tasks wait for a wake-up
  idle_.wait(lock, [this] { return tasks_.empty() && !running_task_; });
  rethrow_locked(lock);
}

void SerialWorker::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // stopping, nothing left
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    running_task_ = true;
    lock.unlock();
    std::exception_ptr failed;
    try {
      task();
    } catch (...) {
      failed = std::current_exception();
    }
    lock.lock();
    running_task_ = false;
    if (failed && !failed_) {
      failed_ = true;
      error_ = failed;
      tasks_.clear();  // what came after a failed write would leave a gap in the file
    }
    if (tasks_.empty()) idle_.notify_all();
  }
}

}  // namespace kscope
