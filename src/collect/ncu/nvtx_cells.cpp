#include "collect/ncu/nvtx_cells.hpp"

#include <cstdlib>

#include "kscope/errors.hpp"

namespace kscope::ncu {
namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto p = s.find(sep, start);
    out.emplace_back(s.substr(start, p == std::string_view::npos ? s.npos : p - start));
    if (p == std::string_view::npos) return out;
    start = p + 1;
  }
}

std::string join(const std::vector<std::string>& parts, std::size_t begin, std::size_t end) {
  std::string out;
  for (std::size_t i = begin; i < end; ++i) out += (i > begin ? ":" : "") + parts[i];
  return out;
}

// The quoted entries of a cell, in order.
std::vector<std::string> quoted_entries(std::string_view cell) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while ((i = cell.find('"', i)) != std::string_view::npos) {
    const auto close = cell.find('"', i + 1);
    if (close == std::string_view::npos) {
      throw Error("unterminated NVTX entry in ncu cell '" + std::string(cell) + "'");
    }
    out.emplace_back(cell.substr(i + 1, close - i - 1));
    i = close + 1;
  }
  return out;
}

std::optional<std::uint64_t> payload_value(const std::string& type, const std::string& value) {
  if (type.empty() || type == "none") return std::nullopt;
  std::string digits;
  for (char c : value) {
    if (c != ',') digits += c;
  }
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  std::uint64_t v = 0;
  if (digits.front() == '-') {
    // A signed rendering of a 64-bit payload with bit 63 set.
    v = static_cast<std::uint64_t>(std::strtoll(digits.c_str(), &end, 10));
  } else {
    v = std::strtoull(digits.c_str(), &end, 0);  // decimal or 0x...
  }
  if (end != digits.c_str() + digits.size()) return std::nullopt;
  return v;
}

// Splits one entry whose fixed layout is `prefix fields` + name + 5 attribute fields + message.
// Range names may contain ':'; the name and the message are normally the same text, which tells
// where the name ends.
NvtxRange parse_entry(const std::string& entry, bool has_id) {
  const auto parts = split(entry, ':');
  const std::size_t head = has_id ? 2 : 1;  // [id], domain
  const std::size_t fixed = head + 7;       // name, PL_Type, PL_Value, CLR_Type, Color, Msg_Type, Msg
  if (parts.size() < fixed) {
    throw Error("cannot read NVTX entry \"" + entry + "\" of ncu's CSV: expected " +
                std::to_string(fixed) + " ':'-separated fields (" +
                (has_id ? "Id:" : "") + "Domain:Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg)");
  }
  const std::size_t extra = parts.size() - fixed;
  std::size_t name_extra = extra;  // all extra ':' in the name unless the message says otherwise
  for (std::size_t k = 0; k <= extra; ++k) {
    const std::string name = join(parts, head, head + 1 + k);
    const std::string msg = join(parts, head + 6 + k, parts.size());
    if (name == msg) {
      name_extra = k;
      break;
    }
  }
  NvtxRange r;
  if (has_id) r.id = parts[0];
  r.domain = parts[head - 1];
  r.name = join(parts, head, head + 1 + name_extra);
  const std::size_t attr = head + 1 + name_extra;
  r.payload_type = parts[attr];
  r.payload = payload_value(parts[attr], parts[attr + 1]);
  return r;
}

std::string domain_prefix(const std::string& domain) {
  return domain == kDefaultNvtxDomain ? std::string() : domain + "@";
}

}  // namespace

std::vector<NvtxRange> parse_push_pop_cell(std::string_view cell) {
  std::vector<NvtxRange> out;
  for (const auto& e : quoted_entries(cell)) out.push_back(parse_entry(e, false));
  return out;
}

std::vector<NvtxRange> parse_start_end_cell(std::string_view cell) {
  std::vector<NvtxRange> out;
  for (const auto& e : quoted_entries(cell)) out.push_back(parse_entry(e, true));
  return out;
}

std::string nvtx_label(const std::vector<NvtxRange>& start_end,
                       const std::vector<NvtxRange>& push_pop, const std::string& bare_domain) {
  std::vector<std::string> parts;
  for (const auto& r : start_end) {
    parts.push_back(r.domain == bare_domain ? r.name : domain_prefix(r.domain) + r.name);
  }
  // One stack per domain, in order of first appearance.
  std::vector<std::string> domains;
  for (const auto& r : push_pop) {
    bool seen = false;
    for (const auto& d : domains) seen = seen || d == r.domain;
    if (!seen) domains.push_back(r.domain);
  }
  for (const auto& d : domains) {
    std::string stack = domain_prefix(d);
    for (const auto& r : push_pop) {
      if (r.domain == d) stack += r.name + "/";
    }
    parts.push_back(stack);
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : " | ") + p;
  return out;
}

}  // namespace kscope::ncu
