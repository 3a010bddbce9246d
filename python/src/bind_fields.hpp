#pragma once
// Properties of option structs (Options, TimeOptions) for the bindings: a member of one of their
// groups under its flat name (thermal_mode for thermal.mode), and callback members that accept
// and return None (an empty std::function).

#include <type_traits>
#include <utility>

#include <nanobind/nanobind.h>

#include "kscope/options.hpp"

namespace kscope::python {

namespace nb = nanobind;

// A callback field as a property that also accepts and returns None (an empty std::function);
// `field(o)` is the field of an `Owner` `o`, const or not (a member, or a member of one of its
// groups).
template <class Owner, class Field>
void def_callback_at(nb::class_<Owner>& cls, const char* name, Field field, const char* doc) {
  using Fn = std::decay_t<decltype(field(std::declval<Owner&>()))>;
  cls.def_prop_rw(
      name,
      [field](const Owner& o) -> nb::object { return field(o) ? nb::cast(field(o)) : nb::none(); },
      [field](Owner& o, nb::handle fn) { field(o) = fn.is_none() ? Fn() : nb::cast<Fn>(fn); },
      nb::arg("fn").none(), doc);
}

template <class Owner, class Fn>
void def_callback(nb::class_<Owner>& cls, const char* name, Fn Owner::*field, const char* doc) {
  def_callback_at(cls, name, [field](auto& o) -> auto& { return o.*field; }, doc);
}

// A member of one of an option struct's groups (Options::thermal, ...) as a flat property: Python
// keeps the flat names (thermal_mode for thermal.mode) that its keywords, the JSON files and the
// error messages use.
template <class Owner, class Group, class T>
void def_grouped(nb::class_<Owner>& cls, const char* name, Group Owner::*group, T Group::*field,
                 const char* doc) {
  cls.def_prop_rw(
      name, [group, field](const Owner& o) -> T { return o.*group.*field; },
      [group, field](Owner& o, T value) { (o.*group).*field = std::move(value); }, doc);
}

// A callback member of one of an option struct's groups (Options::region_capture) as a flat
// property that also accepts and returns None.
template <class Owner, class Group, class Fn>
void def_grouped_callback(nb::class_<Owner>& cls, const char* name, Group Owner::*group,
                          Fn Group::*field, const char* doc) {
  def_callback_at(cls, name, [group, field](auto& o) -> auto& { return o.*group.*field; }, doc);
}

// The members of an option struct's `adaptive` group (AdaptiveRuns) under their flat names.
template <class Owner>
void def_adaptive_runs(nb::class_<Owner>& cls) {
  def_grouped(cls, "auto_runs", &Owner::adaptive, &AdaptiveRuns::enabled,
              "adaptive run count (Python runs='auto')");
  def_grouped(cls, "target_rel_ci", &Owner::adaptive, &AdaptiveRuns::target_rel_ci,
              "auto_runs: CI95 half-width to reach, fraction of the mean");
  def_grouped(cls, "min_runs", &Owner::adaptive, &AdaptiveRuns::min_runs,
              "auto_runs: first batch, fewest runs");
  def_grouped(cls, "max_runs", &Owner::adaptive, &AdaptiveRuns::max_runs,
              "auto_runs: most runs per config");
  def_grouped(cls, "time_budget", &Owner::adaptive, &AdaptiveRuns::time_budget,
              "auto_runs: seconds per config");
}

}  // namespace kscope::python
