#include "report/journal_names.hpp"

#include "report/json_tape.hpp"
#include "report/json_text.hpp"

namespace kscope::report {
namespace {

// The entries of `line`'s member `key` ([index, names...] each), which must continue a table of
// `size` entries; `read` turns an entry's names into the table's element.
template <class T, class F, class Read>
std::vector<T> entries(const F& line, const char* key, std::size_t size, Read read) {
  std::vector<T> out;
  const auto member = line.find(key);
  if (!member) return out;
  for (const auto& entry : member->items()) {
    const auto index = entry.element(0);
    if (index.template get<std::size_t>() != size + out.size()) {
      index.fail("index " + std::to_string(size + out.size()) + ", the next of the " + key +
                 " table");
    }
    out.push_back(read(entry));
  }
  return out;
}

template <class F, class T>
const T& entry_at(const std::vector<T>& table, const F& index, const char* what) {
  const auto i = index.template get<std::size_t>();
  if (i >= table.size()) {
    index.fail(std::string("an index below ") + std::to_string(table.size()) + " (the " + what +
               " named on earlier \"names\" lines)");
  }
  return table[i];
}

template <class T>
void add(std::vector<T>& table, std::vector<T> more) {
  for (auto& m : more) table.push_back(std::move(m));
}

}  // namespace

template <class Entry>
std::size_t JournalNameWriter::find_or_add(Table& table, std::string key, Entry entry) {
  const auto found = table.index.find(key);
  if (found != table.index.end()) return found->second;
  const std::size_t index = table.index.size();
  table.index.emplace(std::move(key), index);
  if (!table.pending.empty()) table.pending += ',';
  table.pending += '[' + std::to_string(index) + ',';
  entry(table.pending);
  table.pending += ']';
  return index;
}

std::size_t JournalNameWriter::annotation(const std::string& name) {
  return find_or_add(annotations_, name, [&](std::string& out) { append_json_string(out, name); });
}

std::size_t JournalNameWriter::kernel(const std::string& name, const std::string& mangled) {
  return find_or_add(kernels_, name + '\0' + mangled, [&](std::string& out) {
    append_json_string(out, name);
    out += ',';
    append_json_string(out, mangled);
  });
}

std::size_t JournalNameWriter::metric(const std::string& name,
                                      const std::optional<std::string>& unit) {
  // A unit's key part starts with \1, none is \0: "m" without unit and with unit "" differ.
  return find_or_add(metrics_, name + (unit ? '\1' + *unit : std::string(1, '\0')),
                     [&](std::string& out) {
                       append_json_string(out, name);
                       out += ',';
                       if (unit) {
                         append_json_string(out, *unit);
                       } else {
                         out += "null";
                       }
                     });
}

std::size_t JournalNameWriter::phase(const std::string& name) {
  return find_or_add(phases_, name, [&](std::string& out) { append_json_string(out, name); });
}

std::string JournalNameWriter::take_line() {
  std::string line;
  const std::pair<const char*, Table*> tables[] = {
      {"annotations", &annotations_}, {"kernels", &kernels_}, {"metrics", &metrics_},
      {"phases", &phases_}};
  for (const auto& [key, table] : tables) {
    if (table->pending.empty()) continue;
    line += line.empty() ? "{\"kind\":\"names\",\"" : ",\"";
    line += key;
    line += "\":[";
    line += table->pending;
    line += ']';
    table->pending.clear();
  }
  if (!line.empty()) line += '}';
  return line;
}

template <class F>
void JournalNameReader::read_line(const F& line) {
  const auto name = [](const auto& e) { return e.element(1).template get<std::string>(); };
  auto annotations = entries<std::string>(line, "annotations", annotations_.size(), name);
  auto kernels = entries<std::pair<std::string, std::string>>(
      line, "kernels", kernels_.size(), [](const auto& e) {
        return std::make_pair(e.element(1).template get<std::string>(), e.element(2).template get<std::string>());
      });
  auto metrics = entries<std::pair<std::string, std::optional<std::string>>>(
      line, "metrics", metrics_.size(), [](const auto& e) {
        const auto unit = e.element(2);
        return std::make_pair(e.element(1).template get<std::string>(),
                              unit.is_null() ? std::nullopt
                                             : std::optional<std::string>(unit.template get<std::string>()));
      });
  auto phases = entries<std::string>(line, "phases", phases_.size(), name);
  add(annotations_, std::move(annotations));
  add(kernels_, std::move(kernels));
  add(metrics_, std::move(metrics));
  add(phases_, std::move(phases));
}

template <class F>
const std::string& JournalNameReader::annotation(const F& index) const {
  return entry_at(annotations_, index, "annotations");
}

template <class F>
const std::pair<std::string, std::string>& JournalNameReader::kernel(const F& index) const {
  return entry_at(kernels_, index, "kernels");
}

template <class F>
const std::pair<std::string, std::optional<std::string>>& JournalNameReader::metric(
    const F& index) const {
  return entry_at(metrics_, index, "metrics");
}

template <class F>
const std::string& JournalNameReader::phase(const F& index) const {
  return entry_at(phases_, index, "phases");
}

// Every reader, for both kinds of field.
#define KSCOPE_NAME_READERS(F)                                                                 \
  template void JournalNameReader::read_line(const F&);                                       \
  template const std::string& JournalNameReader::annotation(const F&) const;                  \
  template const std::pair<std::string, std::string>& JournalNameReader::kernel(const F&) const; \
  template const std::pair<std::string, std::optional<std::string>>& JournalNameReader::metric( \
      const F&) const;                                                                         \
  template const std::string& JournalNameReader::phase(const F&) const;
KSCOPE_NAME_READERS(JsonField)
KSCOPE_NAME_READERS(TapeField)
#undef KSCOPE_NAME_READERS

}  // namespace kscope::report
