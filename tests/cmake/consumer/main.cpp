// A program outside the kscope tree, built against the installed package (find_package(kscope)).
#include <kscope/kscope.hpp>

#include <cstdio>

int main() {
  try {
    (void)kscope::profile("consumer", kscope::configs({1}), [](const kscope::Config&) {});
  } catch (const kscope::NoDeviceError& e) {
    std::printf("%s\n", e.what());  // expected without a GPU
  }
  std::printf("kscope %s\n", kscope::version());
  return 0;
}
