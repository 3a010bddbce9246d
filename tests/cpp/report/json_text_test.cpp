// The journal's text encoding (report/json_text): what it writes reads back to the same values,
// non-finite numbers become null, bad UTF-8 is replaced, and escapes are valid JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>
#include <nlohmann/json.hpp>

#include "report/json_codec.hpp"
#include "report/json_text.hpp"

namespace kscope {
namespace {

using json = report::Json;

TEST(JsonText, NumbersRoundTripAndNonFiniteIsNull) {
  for (double x : {0.0, 1.0, -2.5, 5567.0, 1e-300, 1.7976931348623157e308, 0.1, 1.0 / 3}) {
    std::string s;
    report::append_json_number(s, x);
    EXPECT_EQ(json::parse(s).get<double>(), x) << s;
    EXPECT_TRUE(json::parse(s).is_number_float()) << s;  // integral values keep ".0"
  }
  for (double x : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    std::string s;
    report::append_json_number(s, x);
    EXPECT_EQ(s, "null");
  }
}

// The streamed result is the text nlohmann's dump made of the same tree: the same layout, and the
// same digits but where nlohmann's Grisu2 gives 17 digits that are not the shortest or closest
// (to_chars' are; 35 of these 40,020 numbers). Both read back as the same double.
TEST(JsonText, NumbersAreLaidOutAsNlohmannDumpsThem) {
  std::vector<double> xs = {0.0, -0.0, 1.0, 100.0, 2010.0, 0.498, 1e14, 1e15, 1e16, 123456.789,
                            0.0001, 0.00001, 2.5e-5, 1e-7, 5e-324, 1.5e300, -3.25e-12,
                            999999999999999.9, 4.94e-322, 1.7976931348623157e308};
  std::uint64_t bits = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 20000; ++i) {  // doubles of every exponent
    bits = bits * 6364136223846793005u + 1442695040888963407u;
    double x;
    std::memcpy(&x, &bits, sizeof x);
    if (std::isfinite(x)) xs.push_back(x);
    xs.push_back(static_cast<double>(bits >> 40) / 1000.0);  // times in ns, three decimals
  }
  std::size_t other_digit = 0;
  for (double x : xs) {
    std::string s;
    report::append_json_number(s, x);
    EXPECT_EQ(json::parse(s).get<double>(), x) << s;
    const std::string dumped = json(x).dump();
    std::string tree;
    report::append_tree_number(tree, x);
    EXPECT_EQ(tree, dumped);
    if (s == dumped) continue;
    ++other_digit;
    EXPECT_LE(s.size(), dumped.size()) << s << " " << dumped;
    const auto exponent = [](const std::string& t) { return t.substr(std::min(t.find('e'), t.size())); };
    EXPECT_EQ(exponent(s), exponent(dumped)) << s << " " << dumped;
  }
  EXPECT_LT(other_digit, xs.size() / 500);
}

TEST(JsonText, StringsEscapeAndReplaceBadUtf8) {
  const std::string cases[] = {"vadd", "a\"b\\c", "tab\tnew\nline\x01", "µs ✓", "void k<int>(float*, int)"};
  for (const auto& c : cases) {
    std::string s;
    report::append_json_string(s, c);
    EXPECT_EQ(json::parse(s).get<std::string>(), c) << s;
  }
  std::string s;
  report::append_json_string(s, std::string("ok\xff"));
  EXPECT_EQ(json::parse(s).get<std::string>(), "ok\xEF\xBF\xBD");
}

TEST(JsonText, KernelRecordReadsBackEqual) {
  KernelRecord k;
  k.annotation = "region \"1\"";
  k.kernel = "vadd";
  k.mangled = "_Z4vaddPKfS0_Pfl";
  k.run = RunId{3, 7, false};
  k.device = 1;
  k.sequence = 42;
  k.metrics = {{"gpu__time_duration.sum", 5568.0, "ns"}, {"x", std::nan(""), std::nullopt}};
  k.start_ns = -5;
  k.end_ns = 123456789012345;
  k.stream = 7;
  const KernelRecord back = report::kernel_record_from_json(report::JsonField(report::to_json(k), "k"));
  EXPECT_EQ(back.annotation, k.annotation);
  EXPECT_EQ(back.kernel, k.kernel);
  EXPECT_EQ(back.mangled, k.mangled);
  EXPECT_EQ(back.run, k.run);
  EXPECT_EQ(back.device, 1);
  EXPECT_EQ(back.sequence, 42u);
  ASSERT_EQ(back.metrics.size(), 2u);
  EXPECT_EQ(back.metrics[0].value, 5568.0);
  EXPECT_EQ(back.metrics[0].unit, std::optional<std::string>("ns"));
  EXPECT_TRUE(std::isnan(back.metrics[1].value));
  EXPECT_EQ(back.metrics[1].unit, std::nullopt);
  EXPECT_EQ(back.start_ns, std::optional<std::int64_t>(-5));
  EXPECT_EQ(back.end_ns, std::optional<std::int64_t>(123456789012345));
  EXPECT_EQ(back.stream, std::optional<std::uint32_t>(7));
}

TEST(JsonText, RunLogPhaseAndTelemetryReadBackEqual) {
  RunLog r;
  r.run = RunId{2, 5, false};
  r.entered = {"a", "b"};
  r.failed = {"b"};
  r.info = {InfoValue(1.5), InfoValue(std::string("x")), InfoValue()};
  r.annotation_info = {{"a", {InfoValue(), InfoValue(std::nan(""))}}};
  const RunLog rb = report::run_log_from_json(report::JsonField(report::to_json(r), "r"));
  EXPECT_EQ(rb.run, r.run);
  EXPECT_EQ(rb.entered, r.entered);
  EXPECT_EQ(rb.failed, r.failed);
  ASSERT_EQ(rb.info.size(), 3u);
  EXPECT_EQ(rb.info[0].number(), 1.5);
  EXPECT_EQ(rb.info[1].text(), "x");
  ASSERT_EQ(rb.annotation_info.size(), 1u);
  EXPECT_EQ(rb.annotation_info[0].annotation, "a");

  PhaseSpan p{"region entry", 4, 1, true, 2, "vadd", 100, 250};
  const PhaseSpan pb = report::phase_span_from_json(report::JsonField(report::to_json(p), "p"));
  EXPECT_EQ(pb.phase, p.phase);
  EXPECT_EQ(pb.config, p.config);
  EXPECT_EQ(pb.run, p.run);
  EXPECT_TRUE(pb.warmup);
  EXPECT_EQ(pb.pass, 2);
  EXPECT_EQ(pb.annotation, "vadd");
  EXPECT_EQ(pb.end_ns, 250);
  PhaseSpan outside{"journal", std::nullopt, std::nullopt, false, 0, "", 1, 2};
  EXPECT_EQ(report::to_json(outside), json::parse(R"({"phase":"journal","start_ns":1,"end_ns":2})"));

  RunTelemetry t;
  t.config = 1;
  t.run = 2;
  t.device = 0;
  t.before = TelemetrySample{1980, 2619, 41, 46, 123.5, 0, 3.25};
  t.cooling_wait_s = 0.5;
  const RunTelemetry tb = report::run_telemetry_from_json(report::JsonField(report::to_json(t), "t"));
  EXPECT_EQ(tb.config, 1u);
  ASSERT_TRUE(tb.before);
  EXPECT_EQ(tb.before->sm_clock_mhz, 1980);
  EXPECT_EQ(tb.before->power_w, 123.5);
  EXPECT_EQ(tb.before->age_ms, 3.25);
  EXPECT_FALSE(tb.after);
  EXPECT_EQ(tb.cooling_wait_s, 0.5);
}

}  // namespace
}  // namespace kscope
