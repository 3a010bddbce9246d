#include "core/serial_worker.hpp"

#include <utility>

namespace kscope {

SerialWorker::SerialWorker() : thread_([this] { loop(); }) {}

SerialWorker::~SerialWorker() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    woken_ = true;
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

void SerialWorker::post(std::function<void()> task) { queue(std::move(task), true); }

void SerialWorker::defer(std::function<void()> task) { queue(std::move(task), false); }

void SerialWorker::queue(std::function<void()> task, bool wake) {
  std::unique_lock<std::mutex> lock(mu_);
  rethrow_locked(lock);
  if (failed_) return;
  tasks_.push_back(std::move(task));
  if (!wake) return;
  woken_ = true;
  lock.unlock();
  wake_.notify_one();
}

void SerialWorker::wait() {
  std::unique_lock<std::mutex> lock(mu_);
  if (!tasks_.empty()) {  // deferred tasks: look now rather than within kDeferLatency
    woken_ = true;
    wake_.notify_one();
  }
  idle_.wait(lock, [this] { return tasks_.empty() && !running_task_; });
  rethrow_locked(lock);
}

void SerialWorker::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (tasks_.empty()) {
      if (stopping_) return;
      wake_.wait_for(lock, kDeferLatency, [this] { return woken_; });
      woken_ = false;
      continue;
    }
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
    task = nullptr;  // what it captured goes before the lock is taken again
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
