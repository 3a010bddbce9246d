#pragma once
/// @file kscope.hpp
/// Umbrella header: everything a kscope user needs.

#include "kscope/aggregate.hpp"
#include "kscope/annotation.hpp"
#include "kscope/compare.hpp"
#include "kscope/config.hpp"
#include "kscope/errors.hpp"
#include "kscope/ncu_import.hpp"
#include "kscope/options.hpp"
#include "kscope/profile.hpp"
#include "kscope/region_capture.hpp"
#include "kscope/merge.hpp"
#include "kscope/results.hpp"
#include "kscope/sanitize.hpp"
#include "kscope/time.hpp"
#include "kscope/value.hpp"
