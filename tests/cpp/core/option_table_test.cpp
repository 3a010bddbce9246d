// The option table (core/option_table.hpp): one entry per Options field, each reaching its own
// field, under a name of its own.

#include "core/option_table.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace kscope {
namespace {

const void* address_of(const OptionSpec& spec, Options& o) {
  return std::visit([&](const auto& field) -> const void* { return &field.of(o); }, spec.field);
}

TEST(OptionTableTest, EveryNameIsUniqueAndFound) {
  std::set<std::string> names;
  for (const auto& spec : option_table()) {
    EXPECT_TRUE(names.insert(spec.name).second) << spec.name << " is listed twice";
    EXPECT_EQ(find_option(spec.name), &spec);
  }
  EXPECT_EQ(find_option("colour"), nullptr);
}

TEST(OptionTableTest, EveryEntryReachesAFieldOfItsOwn) {
  Options o;
  std::set<const void*> fields;
  for (const auto& spec : option_table()) {
    EXPECT_TRUE(fields.insert(address_of(spec, o)).second) << spec.name << " shares a field";
  }
  const auto* wait = find_option("thermal_wait");
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(address_of(*wait, o), &o.thermal.wait);
  EXPECT_EQ(address_of(*find_option("auto_runs"), o), &o.adaptive.enabled);
}

TEST(OptionTableTest, TypesAndRecordsAreTheFields) {
  EXPECT_STREQ(option_type_name(*find_option("runs")), "int");
  EXPECT_STREQ(option_type_name(*find_option("thermal_device")), "int | None");
  EXPECT_STREQ(option_type_name(*find_option("verbosity")), "Verbosity");
  EXPECT_STREQ(option_type_name(*find_option("derive_metric")), "callable");
  EXPECT_EQ(find_option("runs")->record, OptionRecord::kSweep);
  EXPECT_EQ(find_option("ncu_part_seconds")->record, OptionRecord::kFree);
  EXPECT_EQ(find_option("log")->record, OptionRecord::kNotStored);
}

}  // namespace
}  // namespace kscope
