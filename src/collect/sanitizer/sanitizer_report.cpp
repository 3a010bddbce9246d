#include "collect/sanitizer/sanitizer_report.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "core/kernel_name.hpp"
#include "core/utf8.hpp"
#include "kscope/errors.hpp"

namespace kscope::sanitizer {
namespace {

constexpr std::string_view kDeviceStubPrefix = "__device_stub_";

std::optional<std::uint64_t> parse_u64(const std::string& text) {
  std::string_view s = text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<int> parse_line(const std::string& text) {
  const auto v = parse_u64(text);
  if (!v || *v == 0 || *v > 100000000) return std::nullopt;  // 0: no line information
  return static_cast<int>(*v);
}

std::optional<Dim3> parse_dim3(const XmlElement* e) {
  if (!e) return std::nullopt;
  const auto x = parse_u64(e->child_text("x"));
  const auto y = parse_u64(e->child_text("y"));
  const auto z = parse_u64(e->child_text("z"));
  // A coordinate that does not fit 32 bits is no coordinate (a corrupt report), not a wrapped one.
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint32_t>::max();
  if (!x || !y || !z || *x > kMax || *y > kMax || *z > kMax) return std::nullopt;
  return Dim3{static_cast<std::uint32_t>(*x), static_cast<std::uint32_t>(*y),
              static_cast<std::uint32_t>(*z)};
}

std::string base_file_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "Write at x.cu:7" (or "Write at kernel+0xa0" without line information).
std::string access_text(const XmlElement& access) {
  std::string out = access.child_text("direction");
  const XmlElement* where = access.child("where");
  if (!where) return out;
  const std::string path = where->child_text("path");
  const std::string line = where->child_text("line");
  std::string place;
  if (!path.empty() && parse_line(line)) {
    place = base_file_name(path) + ":" + line;
  } else {
    place = where->child_text("func");
    const std::string pc = where->child_text("pc");
    if (!pc.empty()) place += "+" + pc;
  }
  return out.empty() ? place : out + " at " + place;
}

void read_where(const XmlElement* where, Finding* f) {
  if (!where) return;
  f->function = where->child_text("func");
  f->file = where->child_text("path");
  f->line = parse_line(where->child_text("line"));
  f->pc = parse_u64(where->child_text("pc"));
}

// racecheck's <what><source>..</source><destination>..</destination>...</what>.
void read_race(const XmlElement& what, Finding* f) {
  const XmlElement* source = what.child("source");
  if (!source) return;
  read_where(source->child("where"), f);
  std::string others;
  std::size_t hazards = 0;
  for (const XmlElement* d : what.children_named("destination")) {
    others += (others.empty() ? "" : ", ") + access_text(*d);
    hazards += static_cast<std::size_t>(parse_u64(d->child_text("count")).value_or(1));
  }
  f->detail = access_text(*source) + (others.empty() ? "" : " races with " + others);
  if (hazards > 0) f->count = hazards;
}

// compute-sanitizer reports a CUDA API call that returned an error as "Program hit
// cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to
// cudaFree." (driver API: "... on CUDA API call to cuMemFree_v2."). No recorded XML report has
// such a record yet (tests/fixtures/sanitizer/README.md), so its <kind> is not known: a kind that
// names the API, or that text, makes the record an API error.
constexpr std::string_view kApiCallTo = "API call to ";
constexpr std::string_view kProgramHit = "Program hit ";

bool api_error_record(const std::string& category, const std::string& text) {
  for (const char* api : {"Api", "API", "api"}) {
    if (category.find(api) != std::string::npos) return true;
  }
  return text.compare(0, kProgramHit.size(), kProgramHit) == 0 &&
         text.find(kApiCallTo) != std::string::npos;
}

// "cudaFree" from "... on CUDA API call to cudaFree."; "" when the text names none.
std::string failed_api_call(const std::string& text) {
  const auto at = text.rfind(kApiCallTo);
  if (at == std::string::npos) return {};
  const std::size_t begin = at + kApiCallTo.size();
  std::size_t end = begin;
  while (end < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
    ++end;
  }
  return text.substr(begin, end - begin);
}

// "cudaErrorLaunchFailure" from "Program hit cudaErrorLaunchFailure (error 719) ...".
std::string api_error_name(const std::string& text) {
  if (text.compare(0, kProgramHit.size(), kProgramHit) != 0) return {};
  const auto end = text.find(" (error ", kProgramHit.size());
  return end == std::string::npos ? std::string()
                                  : text.substr(kProgramHit.size(), end - kProgramHit.size());
}

std::string frame_text(const XmlElement& frame) {
  std::string func = frame.child_text("func");
  const std::string module = frame.child_text("module");
  const std::string pc = frame.child_text("pc");
  if (func.empty()) func = "??";
  if (module.empty() && pc.empty()) return func;
  return func + " (" + module + (module.empty() || pc.empty() ? "" : "+") + pc + ")";
}

}  // namespace

std::string kernel_from_launch_stack(const std::vector<std::string>& frame_functions) {
  for (const auto& func : frame_functions) {
    if (func.compare(0, kDeviceStubPrefix.size(), kDeviceStubPrefix) == 0 &&
        func.size() > kDeviceStubPrefix.size() + 1) {
      // nvcc's host stub of kernel _Z3oobPii is __device_stub__Z3oobPii.
      return kernel_base_name(demangle(func.substr(kDeviceStubPrefix.size())));
    }
  }
  return {};
}

Finding finding_from_record(const XmlElement& record, const std::string& check) {
  Finding f;
  f.check = check;
  f.category = record.child_text("kind");
  f.severity = record.child_text("level");
  if (f.severity.empty()) f.severity = "Error";
  if (const XmlElement* who = record.child("who")) {
    f.thread = parse_dim3(who->child("threadIdx"));
    f.block = parse_dim3(who->child("blockIdx"));
  }
  if (const XmlElement* what = record.child("what")) {
    f.kind = what->child_text("text");
    const std::string error = what->child_text("error");
    // memcheck: "Invalid __global__ write of size 4 bytes is out of bounds" + <error>out of
    // bounds</error>: the kind without the error, which goes to detail.
    const std::string suffix = " is " + error;
    if (!error.empty() && f.kind.size() > suffix.size() &&
        f.kind.compare(f.kind.size() - suffix.size(), suffix.size(), suffix) == 0) {
      f.kind.erase(f.kind.size() - suffix.size());
    }
    f.detail = error;
    f.address = parse_u64(what->child_text("address"));
    f.size = parse_u64(what->child_text("size"));
    read_race(*what, &f);
  }
  if (f.kind.empty()) f.kind = f.category;
  read_where(record.child("where"), &f);

  std::vector<std::string> functions;
  bool launch_stack = false;
  if (const XmlElement* stack = record.child("hostStack")) {
    launch_stack = stack->child_text("saveLocation").find("launch") != std::string::npos;
    for (const XmlElement* frame : stack->children_named("frame")) {
      functions.push_back(frame->child_text("func"));
      f.host_stack.push_back(frame_text(*frame));
    }
  }
  if (launch_stack) f.kernel = kernel_from_launch_stack(functions);
  if (f.kernel.empty() && !f.function.empty()) f.kernel = kernel_base_name(f.function);
  if (api_error_record(f.category, f.kind)) {
    // No kernel: the failed call is the function, its CUDA error the detail.
    f.category = std::string(kApiErrorCategory);
    f.kernel.clear();
    const std::string call = failed_api_call(f.kind);
    if (!call.empty()) f.function = call;
    if (f.detail.empty()) f.detail = api_error_name(f.kind);
  }
  return f;
}

bool is_leak(const Finding& f) { return f.category == kLeakCategory; }

bool is_api_error(const Finding& f) { return f.category == kApiErrorCategory; }

bool is_kernel_error(const Finding& f) { return !is_leak(f) && !is_api_error(f); }

std::vector<Finding> parse_sanitizer_report(std::string_view xml, const std::string& check,
                                            const std::string& source) {
  // Names and paths that are not UTF-8 are carried with "\xNN" escapes (core/utf8.hpp).
  const XmlElement root = parse_xml(escape_invalid_utf8(xml), source);
  if (root.name != "ComputeSanitizerOutput") {
    throw ToolError("cannot read " + source +
                    ": it is not a compute-sanitizer XML report (its "
                    "root element is <" +
                    root.name + ">, expected <ComputeSanitizerOutput>)");
  }
  std::vector<Finding> out;
  for (const XmlElement* record : root.children_named("record")) {
    out.push_back(finding_from_record(*record, check));
  }
  return out;
}

std::vector<Finding> read_sanitizer_report(const std::string& path, const std::string& check) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ToolError("cannot open compute-sanitizer's report '" + path +
                    "': " + std::strerror(errno));
  }
  std::stringstream text;
  text << in.rdbuf();
  return parse_sanitizer_report(text.str(), check, "compute-sanitizer's report '" + path + "'");
}

}  // namespace kscope::sanitizer
