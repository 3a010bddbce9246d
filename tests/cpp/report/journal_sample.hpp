#pragma once
// The header of the sample journals the report tests write: session "j", 2 runs, configs n=10
// and n=20.

#include "../core/records.hpp"
#include "kscope/results.hpp"

namespace kscope::testing {

inline Results::Data journal_header() {
  Results::Data d;
  d.name = "j";
  d.options.runs = 2;
  d.configs = configs({10, 20}, "n");
  d.parameters = {"n"};
  d.metadata.gpu = "NVIDIA H200";
  return d;
}

}  // namespace kscope::testing
