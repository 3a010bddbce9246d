// A mutation fuzzer for one kscope fuzz target (fuzz_driver.hpp), for compilers without libFuzzer:
// it reads seed files, then runs the target on random mutations of them (bit flips, interesting
// bytes and tokens, insertions, deletions, duplicated ranges, splices of two seeds, cuts) until
// the time is up. A non-kscope exception, or a sanitizer report, ends the run with status 1 and
// the input saved as <out>/crash-<target>-<n>.
//
//   kscope_fuzz_<target> [--seconds N] [--seed S] [--out DIR] SEED_FILE_OR_DIR...

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_driver.hpp"
#include "kscope/errors.hpp"

// Under AddressSanitizer, a report ends the process through its death callback: save the input.
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define KSCOPE_FUZZ_DEATH_CALLBACK 1
#endif

namespace {

// Bytes and tokens that steer parsers into their edge cases.
const char* const kTokens[] = {
    "\"", "\"\"", ",", "\n", "\r\n", "{", "}", "[", "]", ":", "null", "true", "-1", "0", "1.5",
    "1e300", "-1e300", "18446744073709551616", "9007199254740993", "NaN", "\"ID\"", "n/a", "==PROF==",
    "<", ">", "</", "/>", "&amp;", "&#0;", "&#x110000;", "<![CDATA[", "]]>", "<!--", "-->", "<?xml",
    "\xFF", "\xC0\xAF", "\xED\xA0\x80", "_Z", "S_", "S0_", "T_", "\"kscope.journal\"",
    "\"kscope.results\"", "\"runs\"", "\"config\"", "\"kind\"", "1,024"};

std::string saved_input;  // the input being run, for the crash file
std::string crash_path;

void save_crash() {
  if (crash_path.empty()) return;
  if (std::FILE* f = std::fopen(crash_path.c_str(), "wb")) {
    std::fwrite(saved_input.data(), 1, saved_input.size(), f);
    std::fclose(f);
    std::fprintf(stderr, "[fuzz] input saved to %s\n", crash_path.c_str());
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> read_seeds(const std::vector<std::string>& paths) {
  std::vector<std::string> seeds;
  for (const auto& p : paths) {
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p)) {
        if (e.is_regular_file()) seeds.push_back(read_file(e.path().string()));
      }
    } else {
      seeds.push_back(read_file(p));
    }
  }
  return seeds;
}

class Mutator {
 public:
  explicit Mutator(unsigned seed) : rng_(seed) {}

  std::string mutate(const std::vector<std::string>& seeds) {
    std::string s = seeds[pick(seeds.size())];
    const std::size_t rounds = 1 + pick(8);
    for (std::size_t r = 0; r < rounds; ++r) step(&s, seeds);
    return s;
  }

 private:
  std::size_t pick(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

  void step(std::string* s, const std::vector<std::string>& seeds) {
    const std::size_t at = pick(s->size() + 1);
    switch (pick(8)) {
      case 0:  // flip a bit
        if (!s->empty()) (*s)[pick(s->size())] ^= static_cast<char>(1u << pick(8));
        break;
      case 1:  // a random byte
        if (!s->empty()) (*s)[pick(s->size())] = static_cast<char>(pick(256));
        break;
      case 2:  // insert a token
        s->insert(at, kTokens[pick(sizeof kTokens / sizeof kTokens[0])]);
        break;
      case 3: {  // delete a range
        const std::size_t n = pick(std::min<std::size_t>(s->size() - std::min(at, s->size()), 64) + 1);
        s->erase(std::min(at, s->size()), n);
        break;
      }
      case 4: {  // duplicate a range
        if (s->empty()) break;
        const std::size_t from = pick(s->size());
        const std::size_t n = 1 + pick(std::min<std::size_t>(s->size() - from, 256));
        s->insert(at, s->substr(from, n));
        break;
      }
      case 5: {  // splice with another seed
        const std::string& other = seeds[pick(seeds.size())];
        *s = s->substr(0, at) + other.substr(pick(other.size() + 1));
        break;
      }
      case 6:  // cut the end (a truncated file)
        s->resize(at);
        break;
      default: {  // replace a run of digits with a token (numbers are where casts hide)
        const std::size_t d = s->find_first_of("0123456789", at);
        if (d == std::string::npos) break;
        const std::size_t e = s->find_first_not_of("0123456789.", d);
        s->replace(d, (e == std::string::npos ? s->size() : e) - d,
                   kTokens[pick(sizeof kTokens / sizeof kTokens[0])]);
      }
    }
  }

  std::mt19937 rng_;
};

}  // namespace

int main(int argc, char** argv) {
  double seconds = 10;
  unsigned seed = static_cast<unsigned>(std::random_device{}());
  std::string out = ".";
  std::vector<std::string> seed_paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else if (a == "--seed" && i + 1 < argc) {
      seed = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    } else if (a == "--out" && i + 1 < argc) {
      out = argv[++i];
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "usage: " << argv[0] << " [--seconds N] [--seed S] [--out DIR] SEEDS...\n";
      return 2;
    } else {
      seed_paths.push_back(a);
    }
  }
  const std::vector<std::string> seeds = read_seeds(seed_paths);
  // What the targets print (a journal's warning about skipped lines) would flood the log.
  if (std::freopen("/dev/null", "w", stdout) == nullptr) return 2;
  if (seeds.empty()) {
    std::cerr << argv[0] << ": no seed files\n";
    return 2;
  }
  const std::string name = std::filesystem::path(argv[0]).filename().string();
  crash_path = out + "/crash-" + name + "-" + std::to_string(seed);
#ifdef KSCOPE_FUZZ_DEATH_CALLBACK
  __sanitizer_set_death_callback(save_crash);
#endif
  Mutator mutator(seed);
  std::size_t runs = 0;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto run = [&](const std::string& input) {
    saved_input = input;
    try {
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
    } catch (const std::exception& e) {
      std::cerr << "[fuzz] " << name << ": an exception that is not a kscope::Error escaped: "
                << e.what() << "\n";
      save_crash();
      std::exit(1);
    }
    ++runs;
  };
  for (const auto& s : seeds) run(s);
  while (std::chrono::steady_clock::now() < deadline) run(mutator.mutate(seeds));
  std::cerr << "[fuzz] " << name << ": " << runs << " inputs in " << seconds << " s (seed " << seed
            << ", " << seeds.size() << " seed files): no finding\n";
  return 0;
}
