// Seeded random-mutation fuzzing of collsim's file readers (issue 19). This
// machine's toolchain is GCC without libFuzzer, so a small driver mutates
// the committed corpus (tests/fuzz/<target>/) and feeds each reader:
//
//   fuzz_parsers TARGET SECONDS CORPUS_DIR [SEED]
//
// Mutations: bit flips, byte insertions and deletions, a line duplicated or
// dropped, a splice of two corpus inputs, a number replaced by an extreme
// (0, -1, 2^31 - 1, 2^63 - 1, ...). A reader may accept an input or throw the
// error type it documents; any other exception, or a crash (and, in the
// sanitizer build, any sanitizer report) is a finding. Findings are written
// to fuzz-findings/TARGET-N.txt and the run exits 1; inputs that reached new
// (reader, outcome, first error word) behaviour join the corpus in memory.
// Prints executions per second and the corpus size.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "goal_read.hpp"
#include "goal_sim.hpp"
#include "gpu_platform.hpp"
#include "plan.hpp"
#include "platform.hpp"
#include "platform_check.hpp"
#include "schedule_csv.hpp"
#include "tuning_rules.hpp"
#include "two_tree_check.hpp"

namespace {

namespace fs = std::filesystem;
using collsim::MalformedInput;

constexpr size_t kMaxFound = 256;

// Runs one reader; returns a short description of the outcome ("ok" or the
// documented error's first words). Anything else escapes as a finding.
using Reader = std::function<std::string(const std::string& input)>;

std::string first_words(const char* what) {
  std::string w(what);
  const size_t colon = w.find(": ", w.find(':') == std::string::npos ? 0 : w.find(':') + 1);
  w = w.substr(colon == std::string::npos ? 0 : colon + 2);
  return w.substr(0, w.find_first_of("0123456789'\""));
}

template <class Documented>
Reader reading(std::function<void(std::istream&)> read) {
  return [read](const std::string& input) -> std::string {
    std::istringstream in(input);
    try {
      read(in);
      return "ok";
    } catch (const Documented& e) {
      return first_words(e.what());
    }
  };
}

// A reader of the whole text at once.
template <class Documented>
Reader whole(std::function<void(const std::string&)> read) {
  return [read](const std::string& input) -> std::string {
    try {
      read(input);
      return "ok";
    } catch (const Documented& e) {
      return first_words(e.what());
    }
  };
}

const std::map<std::string, Reader>& readers() {
  static const std::map<std::string, Reader> all = {
      {"plan", reading<std::invalid_argument>([](std::istream& in) {
         const collsim::plan::Plan p = collsim::plan::read_plan(in);
         for (int64_t r = 0; r < std::min<int64_t>(p.header.p, 64); ++r) p.steps(r);
       })},
      {"goal", reading<std::invalid_argument>([](std::istream& in) {
         collsim::engine::evaluate(collsim::goal::read_goal(in), collsim::engine::LogGOPS{});
       })},
      {"circulant-csv", reading<MalformedInput>([](std::istream& in) { collsim::read_circulant_csv(in, "fuzz"); })},
      {"two-tree-csv", reading<MalformedInput>([](std::istream& in) { collsim::read_two_tree_csv(in, "fuzz"); })},
      {"platform", reading<std::invalid_argument>(
                       [](std::istream& in) { collsim::platforms::read_platform_file(in, "fuzz.platform"); })},
      {"rules", reading<std::invalid_argument>([](std::istream& in) {
         const auto rules = collsim::sim::read_tuning_rules(in);
         std::ostringstream out;
         collsim::sim::write_tuning_rules(out, rules, "fuzz");
         collsim::sim::find_rule(rules, collsim::Collective::allreduce, 7, 4096, false);
       })},
      {"gpu-platform", whole<std::invalid_argument>([](const std::string& input) {
         collsim::platforms::gpu_platform_from_text(input);
       })},
      // SimGrid XML as `--platform F.xml` checks it, for a run on 4 hosts.
      {"platform-xml", whole<std::invalid_argument>([](const std::string& input) {
         collsim::platforms::check_platform_xml(input, "fuzz.xml", 4);
       })},
  };
  return all;
}

class Mutator {
 public:
  explicit Mutator(uint64_t seed) : rng_(seed) {}

  std::string mutate(std::string s, const std::vector<std::string>& corpus) {
    const int rounds = 1 + static_cast<int>(pick(4));
    for (int i = 0; i < rounds; ++i) s = once(std::move(s), corpus);
    return s.size() > 1 << 16 ? s.substr(0, 1 << 16) : s;
  }

 private:
  uint64_t pick(uint64_t n) { return n == 0 ? 0 : std::uniform_int_distribution<uint64_t>(0, n - 1)(rng_); }

  std::string once(std::string s, const std::vector<std::string>& corpus) {
    static const char* const extremes[] = {"0", "-1", "1", "2", "2147483647", "2147483648", "-2147483648",
                                           "9223372036854775807", "99999999999999999999", "1e308", "nan", ""};
    static const char* const tokens[] = {",", "\n", "-", " ", "#", "=", "0-0", "step", "rank", "send", "recv",
                                         "blocks", "combine", "value", "left", "acc+input", "<", ">", "/>", "\"",
                                         "<link_ctn id=\"l0\"/>", "Bps", "us", "&amp;", "<!--", "-->"};
    const size_t at = s.empty() ? 0 : pick(s.size());
    switch (pick(7)) {
      case 0:
        if (!s.empty()) s[at] = static_cast<char>(s[at] ^ (1 << pick(8)));
        return s;
      case 1: return s.insert(at, tokens[pick(std::size(tokens))]);
      case 2: return s.empty() ? s : s.erase(at, 1 + pick(8));
      case 3: {  // replace the number at or after `at` by an extreme
        const size_t b = s.find_first_of("0123456789", at);
        if (b == std::string::npos) return s;
        const size_t e = s.find_first_not_of("0123456789", b);
        return s.replace(b, (e == std::string::npos ? s.size() : e) - b, extremes[pick(std::size(extremes))]);
      }
      case 4: {  // duplicate or drop a line
        const size_t b = s.rfind('\n', at), e = s.find('\n', at);
        const size_t from = b == std::string::npos ? 0 : b + 1, to = e == std::string::npos ? s.size() : e + 1;
        return pick(2) ? s.insert(to, s.substr(from, to - from)) : s.erase(from, to - from);
      }
      case 5: {  // splice with another input
        const std::string& other = corpus[pick(corpus.size())];
        return s.substr(0, at) + other.substr(other.empty() ? 0 : pick(other.size()));
      }
      default: return s.insert(at, std::string(1, static_cast<char>(pick(256))));
    }
  }

  std::mt19937_64 rng_;
};

std::vector<std::string> load_corpus(const fs::path& dir) {
  std::vector<std::string> corpus;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::ifstream in(entry.path());
    corpus.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  if (corpus.empty()) throw std::invalid_argument("empty corpus " + dir.string());
  return corpus;
}

void save_finding(const std::string& target, int n, const std::string& input, const std::string& why) {
  fs::create_directories("fuzz-findings");
  const std::string path = "fuzz-findings/" + target + "-" + std::to_string(n) + ".txt";
  std::ofstream(path) << input;
  std::fprintf(stderr, "fuzz %s: finding %s: %s\n", target.c_str(), path.c_str(), why.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4 || !readers().count(argv[1])) {
    std::fprintf(
        stderr,
        "usage: fuzz_parsers plan|goal|circulant-csv|two-tree-csv|gpu-platform|platform|platform-xml|rules SECONDS "
        "CORPUS_DIR [SEED]\n");
    return 2;
  }
  const std::string target = argv[1];
  const double seconds = std::stod(argv[2]);
  std::vector<std::string> corpus = load_corpus(argv[3]);
  const size_t seeds = corpus.size();
  Mutator mutator(argc > 4 ? std::stoull(argv[4]) : 1);
  const Reader& read = readers().at(target);
  std::set<std::string> outcomes;
  for (const auto& c : corpus) outcomes.insert(read(c));
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  int64_t execs = 0;
  int findings = 0;
  while (elapsed() < seconds) {
    const std::string input = mutator.mutate(corpus[static_cast<size_t>(execs) % corpus.size()], corpus);
    ++execs;
    try {
      // New behaviour (an outcome not seen before) joins the corpus, up to
      // kMaxFound inputs (error texts that quote the input are all "new").
      if (outcomes.insert(read(input)).second && corpus.size() < seeds + kMaxFound) corpus.push_back(input);
    } catch (const std::exception& e) {
      save_finding(target, ++findings, input, std::string("undocumented exception: ") + e.what());
    }
  }
  std::printf("fuzz %s: %lld executions in %.0f s (%.0f/s), corpus %zu seeds + %zu found, %d findings\n",
              target.c_str(), static_cast<long long>(execs), elapsed(), static_cast<double>(execs) / elapsed(), seeds,
              corpus.size() - seeds, findings);
  return findings > 0 ? 1 : 0;
}
