// SerialWorker: tasks run in order on another thread; wait() returns when they ran; the first
// exception comes back once and drops what was queued after it.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/serial_worker.hpp"

namespace kscope {
namespace {

TEST(SerialWorker, RunsTasksInOrderOnItsOwnThread) {
  std::vector<int> order;
  std::thread::id where;
  SerialWorker w;
  for (int i = 0; i < 100; ++i) {
    w.post([&order, &where, i] {
      order.push_back(i);
      where = std::this_thread::get_id();
    });
  }
  w.wait();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  EXPECT_NE(where, std::this_thread::get_id());
}

TEST(SerialWorker, DeferredTasksRunInOrderOnceAPostOrAWaitWakesTheThread) {
  std::vector<int> order;
  SerialWorker w;
  w.defer([&order] { order.push_back(1); });
  w.defer([&order] { order.push_back(2); });
  w.post([&order] { order.push_back(3); });  // wakes it: 1, 2, then 3
  w.wait();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  w.defer([&order] { order.push_back(4); });
  w.wait();  // wait() wakes the thread for what was deferred
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3, 4}));
}

TEST(SerialWorker, ADeferredTaskRunsWithoutAWakeUpWithinTheLatency) {
  std::mutex mu;
  std::condition_variable cv;
  bool ran = false;
  SerialWorker w;
  w.post([] {});
  w.wait();  // the thread now sleeps, waiting to be woken
  w.defer([&] {
    const std::lock_guard<std::mutex> lock(mu);
    ran = true;
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  // Nothing wakes the worker: it looks every kDeferLatency (5 ms); 2 s is only a hang guard.
  EXPECT_TRUE(cv.wait_for(lock, std::chrono::seconds(2), [&] { return ran; }));
}

TEST(SerialWorker, DeferredTasksRunWhenTheWorkerIsDestroyed) {
  int ran = 0;
  {
    SerialWorker w;
    w.defer([&ran] { ++ran; });
  }
  EXPECT_EQ(ran, 1);
}

TEST(SerialWorker, TheFirstErrorIsRethrownOnceAndLaterTasksAreDropped) {
  int ran = 0;
  SerialWorker w;
  // The thread waits at a gate until both are queued (a post() after the throw would rethrow).
  std::promise<void> gate;
  w.post([opened = gate.get_future().share()] { opened.wait(); });
  w.post([] { throw std::runtime_error("disk full"); });
  w.post([&ran] { ++ran; });
  gate.set_value();
  try {
    w.wait();
    FAIL() << "wait() did not rethrow";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  w.post([&ran] { ++ran; });
  w.wait();
  EXPECT_EQ(ran, 0);
}

TEST(SerialWorker, DestructionRunsWhatIsQueued) {
  int ran = 0;
  {
    SerialWorker w;
    for (int i = 0; i < 10; ++i) w.post([&ran] { ++ran; });
  }
  EXPECT_EQ(ran, 10);
}

// What a task captured goes before the worker takes its lock again: a capture whose destructor
// waits for something (a Python callable takes the GIL) must not hold up everyone who queues.
// Here the destructor queues a task itself, which blocked for good while the lock was held.
TEST(SerialWorker, ATasksCapturesGoBeforeTheWorkerTakesItsLock) {
  SerialWorker w;
  std::promise<void> queued;
  struct QueuesWhenItGoes {
    SerialWorker* worker;
    std::promise<void>* queued;
    ~QueuesWhenItGoes() {
      worker->defer([] {});
      queued->set_value();
    }
  };
  std::shared_ptr<QueuesWhenItGoes> guard(new QueuesWhenItGoes{&w, &queued});
  w.post([guard] { (void)guard; });
  guard.reset();  // the task's copy is the last one
  if (queued.get_future().wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    std::fprintf(stderr, "the worker held its lock while a task's captures went: deadlock\n");
    std::_Exit(1);  // the worker cannot be joined
  }
  w.wait();
}

}  // namespace
}  // namespace kscope
