#pragma once
// A thread of its own that runs posted tasks one at a time, in the order posted: the journal
// encodes and writes its lines there, so that the sweep's thread only hands data over. The
// first exception a task throws is kept and rethrown by the next post() or wait(); later tasks
// are dropped.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace kscope {

/// How often the thread looks for deferred tasks when nothing wakes it.
inline constexpr std::chrono::milliseconds kDeferLatency{5};

class SerialWorker {
 public:
  SerialWorker();
  /// Runs the tasks still queued, then joins the thread. Exceptions are dropped.
  ~SerialWorker();
  SerialWorker(const SerialWorker&) = delete;             // non-copyable
  SerialWorker& operator=(const SerialWorker&) = delete;  // non-copyable

  /// Queues `task` and wakes the thread. Rethrows (once) what an earlier task threw.
  void post(std::function<void()> task);
  /// Queues `task` without waking the thread: it runs, in order, when the thread next looks,
  /// within kDeferLatency or at once when a later post() or wait() (or the destructor) wakes it.
  /// For work that may wait a little, so that the caller's thread pays no wake-up for it (the
  /// journal's staging of finished runs, after every config).
  void defer(std::function<void()> task);
  /// Returns once every task queued before it has run. Rethrows (once) what a task threw.
  void wait();

 private:
  void loop();
  void queue(std::function<void()> task, bool wake);
  void rethrow_locked(std::unique_lock<std::mutex>& lock);

  std::mutex mu_;
  std::condition_variable wake_;  // a task was posted, or stopping
  std::condition_variable idle_;  // the queue ran empty
  std::deque<std::function<void()>> tasks_;
  bool running_task_ = false;
  bool woken_ = false;  // post(), wait() or the destructor asked the thread to look now
  bool stopping_ = false;
  bool failed_ = false;  // a task threw: later ones are dropped
  std::exception_ptr error_;
  std::thread thread_;  // last member: started last, joined before the others go
};

}  // namespace kscope
