// What the range profiler does on this machine, beyond the sequence kscope relies on (the GPU
// test kscope.gpu.range_profiler_diagnostic asserts that one): experiments whose outcome
// decides how kscope batches (several sessions into one decode, one session over many kernels,
// what a session turns into ranges, which ranges a full image drops) and why durations can
// differ from ncu's (the cache state a kernel starts from). Each prints FINDING lines; none is
// a test. `kscope_probe_range_profiler [name...]` runs the named experiments (default: all),
// bench/README.md says more.
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "kscope/errors.hpp"
#include "range_profiler_rig.hpp"

namespace kscope::cupti {
namespace {
using namespace kscope::cupti::diagnostic;

void two_sessions_one_decode() {
  Rig r;
  try {
    r.configure();
    r.rp.start();
    r.work.kernels(2);
    (void)r.rp.stop();
    r.rp.start();  // second session without SetConfig and without decoding the first
    r.work.kernels(3);
    (void)r.rp.stop();
    const auto dropped = r.rp.decode();
    const auto n = print_ranges(r.rp, r.host, r.image);
    std::printf("  FINDING two-sessions-one-decode: %zu ranges (5 = batching works), %zu dropped\n", n, dropped);
  } catch (const Error& e) {
    std::printf("  FINDING two-sessions-one-decode: failed: %s\n", e.what());
  }
}

void restart_without_set_config() {
  Rig r;
  try {
    r.configure();
    r.rp.start();
    r.work.kernels(2);
    (void)r.rp.stop();
    (void)r.rp.decode();
    std::printf("  after session 1: %zu ranges\n", print_ranges(r.rp, r.host, r.image));
    r.rp.start();  // no SetConfig, no image reinitialisation
    r.work.kernels(3);
    (void)r.rp.stop();
    (void)r.rp.decode();
    const auto n = print_ranges(r.rp, r.host, r.image);
    std::printf("  FINDING restart-without-setconfig: %zu ranges after session 2 (5 = appended, 3 = "
                "replaced)\n", n);
  } catch (const Error& e) {
    std::printf("  FINDING restart-without-setconfig: failed: %s\n", e.what());
  }
}

void cost_of_one_session_per_annotation() {
  Rig r;
  r.rp.set_tracing(false);
  const int sessions = 50;
  const auto t0 = Clock::now();
  for (int i = 0; i < sessions; ++i) {
    r.configure();
    r.rp.start();
    r.work.kernels(1);
    (void)r.rp.stop();
    (void)r.rp.decode();
    (void)evaluate(r.host, r.image, 0, r.metrics);
  }
  const double total = ms_since(t0);
  const auto t1 = Clock::now();
  for (int i = 0; i < sessions; ++i) r.work.kernels(1);
  const double bare = ms_since(t1);
  std::printf("  FINDING session-cost: %.3f ms per one-kernel session (bare kernel+sync %.3f ms)\n",
              total / sessions, bare / sessions);
  for (const auto& [call, t] : r.rp.step_times()) {
    std::printf("    %-48s %4zu calls %9.3f ms total %7.3f ms each\n", call.c_str(), t.calls,
                t.milliseconds, t.milliseconds / static_cast<double>(t.calls));
  }
}

// The default for one-pass sets is one session over many kernels: what it costs per kernel,
// with Start, the kernels (each synchronised, as kscope's runs are), Stop and decoding timed
// apart, against the same kernels without profiling.
void cost_inside_one_session() {
  Rig r(kMetrics, 256);
  r.rp.set_tracing(false);
  r.configure();
  auto t0 = Clock::now();
  r.rp.start();
  std::printf("  FINDING first-start: %.3f ms for the first Start after Enable\n", ms_since(t0));
  r.work.kernels(1);
  (void)r.rp.stop();
  (void)r.rp.decode();
  for (int n : {1, 20, 200}) {
    r.configure();
    t0 = Clock::now();
    r.rp.start();
    const double start = ms_since(t0);
    t0 = Clock::now();
    for (int i = 0; i < n; ++i) r.work.kernels(1);
    const double kernels = ms_since(t0);
    t0 = Clock::now();
    (void)r.rp.stop();
    const double stop = ms_since(t0);
    t0 = Clock::now();
    const std::size_t dropped = r.rp.decode();
    const std::size_t ranges = r.rp.num_ranges(r.image);
    for (std::size_t i = 0; i < ranges; ++i) (void)evaluate(r.host, r.image, i, r.metrics);
    const double decode = ms_since(t0);
    t0 = Clock::now();
    for (int i = 0; i < n; ++i) r.work.kernels(1);
    const double bare = ms_since(t0);
    std::printf(
        "  FINDING in-session-cost: %d kernel(s) in one session: Start %.3f ms, kernels "
        "%.3f ms (%.3f ms each; bare %.3f ms each), Stop %.3f ms, decode+evaluate %.3f ms; "
        "%zu range(s), %zu dropped\n",
        n, start, kernels, kernels / n, bare / n, stop, decode, ranges, dropped);
  }
}

// A spanning session sees whatever the program does between kernels. If a memset or a memcpy
// became an auto range, launches (from the callbacks) and ranges would no longer match.
void memset_and_memcpy_in_a_session() {
  Rig r;
  const std::size_t bytes = 8u << 20;
  void* scratch = device_zeroed(bytes);
  try {
    r.configure();
    r.rp.start();
    r.work.kernels(1);
    device_memset(scratch, 1, bytes);
    device_copy(scratch, r.work.data, bytes);
    r.work.kernels(1);
    (void)r.rp.stop();
    const auto dropped = r.rp.decode();
    const auto n = print_ranges(r.rp, r.host, r.image);
    std::printf(
        "  FINDING memset-memcpy-in-session: %zu range(s) for 2 kernels + cudaMemset + "
        "cudaMemcpy (2 = only kernel launches are ranges, as spanning sessions assume), "
        "%zu dropped\n",
        n, dropped);
  } catch (const Error& e) {
    std::printf("  FINDING memset-memcpy-in-session: failed: %s\n", e.what());
  }
  device_free(scratch);
}

// Which ranges a full image keeps: 4 reads of 8, 16, 32 and 64 MiB into an image for 2 ranges.
void which_ranges_are_dropped() {
  Rig r(kMetrics, 2);
  try {
    r.configure();
    r.rp.start();
    for (std::size_t mib : {8u, 16u, 32u, 64u}) {
      launch_read(r.work.data, mib << 20, r.work.sink);
      device_synchronize();
    }
    (void)r.rp.stop();
    const auto dropped = r.rp.decode();
    const auto n = print_ranges(r.rp, r.host, r.image);
    std::printf(
        "  FINDING dropped-ranges: %zu kept, %zu dropped (dram__bytes_read of the kept "
        "ones above: 8 and 16 MiB = the first ranges are kept)\n",
        n, dropped);
  } catch (const Error& e) {
    std::printf("  FINDING dropped-ranges: failed: %s\n", e.what());
  }
}

// Why cold durations can differ from ncu --cache-control all: the same 128 MiB read after a
// write-based flush (leaves dirty lines the read must write back), a read-based flush (clean
// lines, like ncu's invalidate), no flush, a cudaMemset flush (kscope's flush before the fix),
// and under kernel replay (CUPTI saves and restores memory around every pass; CUPTI 13.0 cannot
// flush between passes).
void cache_state_before_a_kernel() {
  const std::size_t flush_bytes = 2 * l2_bytes() / 16 * 16;
  const std::size_t read_bytes = 128u << 20;
  void* scratch = device_zeroed(flush_bytes);
  void* data = device_zeroed(read_bytes);
  float* sink = static_cast<float*>(device_zeroed(64));
  auto read = [&] {
    launch_read(data, read_bytes, sink);
    device_synchronize();
  };
  auto write_flush = [&] {
    launch_increment(static_cast<int*>(scratch), flush_bytes / sizeof(int));
    device_synchronize();
  };
  auto read_flush = [&] {
    launch_read(scratch, flush_bytes, sink);
    device_synchronize();
  };
  auto report = [](const char* mode, const std::vector<std::pair<std::string, bool>>& labels,
                   Rig& r) {
    const std::size_t dropped = r.rp.decode();
    const std::size_t n = r.rp.num_ranges(r.image);
    std::printf("  %s: %zu range(s) (%zu expected), %zu dropped\n", mode, n, labels.size(),
                dropped);
    for (std::size_t i = 0; i < n && i < labels.size(); ++i) {
      const auto v = evaluate(r.host, r.image, i, r.metrics);
      std::printf("  %s %s: %s %.0f ns, dram read %.4g B, dram write %.4g B",
                  labels[i].second ? "FINDING cache-state:" : "                    ", mode,
                  labels[i].first.c_str(), v[0], v[1], v[2]);
      if (v.size() > 3) std::printf(", %s %.4g", r.metrics[3].c_str(), v[3]);
      std::printf("\n");
    }
  };
  try {
    Rig r(kCacheMetrics, 16);
    r.rp.set_tracing(false);
    r.configure();
    r.rp.start();
    write_flush();
    read();
    read_flush();
    read();
    read();
    write_flush();
    read_flush();
    read();
    device_memset(scratch, 0, flush_bytes);
    read();
    (void)r.rp.stop();
    report("user replay (1 pass)",
           {{"write flush (increment 2xL2)", false},
            {"128 MiB read after a write flush", true},
            {"read flush (read 2xL2)", false},
            {"128 MiB read after a read flush", true},
            {"128 MiB read right after itself (warm)", true},
            {"write flush", false},
            {"read flush", false},
            {"128 MiB read after a write flush then a read flush", true},
            {"128 MiB read after a cudaMemset flush (if memsets are no ranges)", true}},
           r);
  } catch (const Error& e) {
    std::printf("  FINDING cache-state: user replay failed: %s\n", e.what());
  }
  const std::vector<std::string> eight = {"gpu__time_duration.sum", "dram__bytes_read.sum",
                                          "dram__bytes_write.sum",
                                          "sm__throughput.avg.pct_of_peak_sustained_elapsed"};
  for (const auto& metrics : {kCacheMetrics, eight}) {
    try {
      Rig r(metrics, 16);
      r.rp.set_tracing(false);
      const std::string mode =
          "kernel replay (" + std::to_string(ProfilerHost::num_passes(r.config)) + " pass(es))";
      r.configure(true);
      r.rp.start();
      read_flush();
      read();
      write_flush();
      read();
      (void)r.rp.stop();
      report(mode.c_str(),
             {{"read flush", false},
              {"128 MiB read after a read flush", true},
              {"write flush", false},
              {"128 MiB read after a write flush", true}},
             r);
    } catch (const Error& e) {
      std::printf("  FINDING cache-state: kernel replay failed: %s\n", e.what());
    }
  }
  device_free(sink);
  device_free(data);
  device_free(scratch);
}

// Kernel replay with several Start..Stop sessions per decode (KSCOPE_CUPTI_BATCH=run for
// multi-pass sets): verified for user replay by two_sessions_one_decode.
void kernel_replay_two_sessions_one_decode() {
  Rig r({"gpu__time_duration.sum", "dram__bytes_read.sum",
         "sm__throughput.avg.pct_of_peak_sustained_elapsed"},
        16);
  r.rp.set_tracing(false);
  try {
    r.configure(true);
    const auto t0 = Clock::now();
    r.rp.start();
    r.work.kernels(2);
    const auto first = r.rp.stop();
    r.rp.start();
    r.work.kernels(3);
    const auto second = r.rp.stop();
    const double ms = ms_since(t0);
    const auto dropped = r.rp.decode();
    const auto n = print_ranges(r.rp, r.host, r.image, r.metrics);
    std::printf(
        "  FINDING kernel-replay-two-sessions-one-decode: %zu ranges (5 = batching works), "
        "%zu dropped, all passes submitted %d/%d, %.3f ms for 5 kernels\n",
        n, dropped, first.all_passes_submitted ? 1 : 0, second.all_passes_submitted ? 1 : 0, ms);
  } catch (const Error& e) {
    std::printf("  FINDING kernel-replay-two-sessions-one-decode: failed: %s\n", e.what());
  }
}

}  // namespace
}  // namespace kscope::cupti

int main(int argc, char** argv) {
  using Experiment = std::pair<const char*, void (*)()>;
  const std::vector<Experiment> experiments = {
      {"two_sessions_one_decode", &kscope::cupti::two_sessions_one_decode},
      {"restart_without_set_config", &kscope::cupti::restart_without_set_config},
      {"cost_of_one_session_per_annotation", &kscope::cupti::cost_of_one_session_per_annotation},
      {"cost_inside_one_session", &kscope::cupti::cost_inside_one_session},
      {"memset_and_memcpy_in_a_session", &kscope::cupti::memset_and_memcpy_in_a_session},
      {"which_ranges_are_dropped", &kscope::cupti::which_ranges_are_dropped},
      {"cache_state_before_a_kernel", &kscope::cupti::cache_state_before_a_kernel},
      {"kernel_replay_two_sessions_one_decode", &kscope::cupti::kernel_replay_two_sessions_one_decode},
  };
  int ran = 0;
  for (const auto& [name, run] : experiments) {
    bool wanted = argc < 2;
    for (int i = 1; i < argc; ++i) wanted = wanted || std::strcmp(argv[i], name) == 0;
    if (!wanted) continue;
    std::printf("%s\n", name);
    try {
      run();
    } catch (const std::exception& e) {
      std::printf("  %s failed: %s\n", name, e.what());
      return 1;
    }
    std::fflush(stdout);  // a crash in a later experiment must not lose what was found
    ++ran;
  }
  if (ran == 0) {
    std::fprintf(stderr, "no experiment of that name; the experiments:");
    for (const auto& e : experiments) std::fprintf(stderr, " %s", e.first);
    std::fprintf(stderr, "\n");
    return 2;
  }
  return 0;
}
