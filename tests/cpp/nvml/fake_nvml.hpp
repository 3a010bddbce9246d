#pragma once
// Scripts the fake libnvidia-ml (fake_nvml.cpp) from a test: the test opens the same file,
// so the loader under test and the test share one instance of it.

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "nvml/nvml_library.hpp"

namespace kscope::testing {

class FakeNvml {
 public:
  FakeNvml() : handle_(dlopen(KSCOPE_FAKE_NVML, RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) throw std::runtime_error(std::string("cannot open the fake NVML: ") + dlerror());
    get<void (*)()>("kscope_fake_nvml_reset")();
  }
  ~FakeNvml() { dlclose(handle_); }
  FakeNvml(const FakeNvml&) = delete;
  FakeNvml& operator=(const FakeNvml&) = delete;

  static std::string path() { return KSCOPE_FAKE_NVML; }
  void set_init_result(int r) { get<void (*)(int)>("kscope_fake_nvml_set_init_result")(r); }
  void set_margin(int result, int value) {
    get<void (*)(int, int)>("kscope_fake_nvml_set_margin")(result, value);
  }
  std::string last_bus_id() { return get<const char* (*)()>("kscope_fake_nvml_last_bus_id")(); }
  int init_calls() { return get<int (*)()>("kscope_fake_nvml_init_calls")(); }
  int shutdown_calls() { return get<int (*)()>("kscope_fake_nvml_shutdown_calls")(); }

 private:
  template <class F>
  F get(const char* name) {
    void* p = dlsym(handle_, name);
    if (!p) throw std::runtime_error(std::string("fake NVML lacks ") + name);
    return reinterpret_cast<F>(p);
  }
  void* handle_;
};

/// Fixture: the fake scripted, then loaded through NvmlLibrary like the real one.
class FakeNvmlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    lib_ = nvml::NvmlLibrary::load(&why, FakeNvml::path());
    ASSERT_NE(lib_, nullptr) << why;
  }
  FakeNvml fake_;
  std::shared_ptr<nvml::NvmlLibrary> lib_;
};

}  // namespace kscope::testing
