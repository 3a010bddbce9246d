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
// where the name ends. `*named_twice`: whether they were the same text.
NvtxRange parse_entry(const std::string& entry, bool has_id, bool* named_twice = nullptr) {
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
  if (named_twice) *named_twice = false;
  for (std::size_t k = 0; k <= extra; ++k) {
    const std::string name = join(parts, head, head + 1 + k);
    const std::string msg = join(parts, head + 6 + k, parts.size());
    if (name == msg) {
      name_extra = k;
      if (named_twice) *named_twice = true;
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

// The entries of a cell, in order. ncu writes each range as "..." without escaping a '"' in its
// name, so an entry ends at a '"' that ends the cell or is followed by spaces and the next
// entry's '"'. When a '"' inside a name is followed by that too, the entry's fields decide: the
// first end that gives an entry whose name and message are the same text, else the first that
// gives a readable entry (a default-domain range's message is "none"). At most kMaxEnds ends are
// tried per entry, so a cell of quotes costs no more than a few passes over it.
std::vector<NvtxRange> parse_entries(std::string_view cell, bool has_id) {
  constexpr int kMaxEnds = 16;
  std::vector<NvtxRange> out;
  std::size_t open = 0;
  while ((open = cell.find('"', open)) != std::string_view::npos) {
    std::optional<NvtxRange> range;
    std::size_t range_close = 0;
    std::string why;  // the first candidate's error, when none reads
    int tried = 0;
    for (std::size_t close = cell.find('"', open + 1);
         close != std::string_view::npos && tried < kMaxEnds; close = cell.find('"', close + 1)) {
      const std::size_t next = cell.find_first_not_of(' ', close + 1);
      if (next != std::string_view::npos && (cell[next] != '"' || next == close + 1)) continue;
      ++tried;
      try {
        bool named_twice = false;
        NvtxRange r = parse_entry(std::string(cell.substr(open + 1, close - open - 1)), has_id,
                                  &named_twice);
        if (!range || named_twice) {
          range = std::move(r);
          range_close = close;
        }
        if (named_twice) break;
      } catch (const Error& e) {
        if (why.empty()) why = e.what();
      }
    }
    if (!range) {
      throw Error(why.empty() ? "unterminated NVTX entry in ncu cell '" + std::string(cell) + "'"
                              : why);
    }
    out.push_back(std::move(*range));
    open = range_close + 1;
  }
  return out;
}

std::string domain_prefix(const std::string& domain) {
  return domain == kDefaultNvtxDomain ? std::string() : domain + "@";
}

}  // namespace

std::vector<NvtxRange> parse_push_pop_cell(std::string_view cell) {
  return parse_entries(cell, false);
}

std::vector<NvtxRange> parse_start_end_cell(std::string_view cell) {
  return parse_entries(cell, true);
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
