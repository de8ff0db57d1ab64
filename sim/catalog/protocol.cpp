#include "protocol.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace collsim::sim {

namespace {

std::vector<std::string> split(const std::string& text, char sep = ',') {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at; (at = text.find(sep, start)) != std::string::npos; start = at + 1)
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

int64_t to_int(const std::string& s) {
  size_t used = 0;
  long long v = 0;
  try {
    v = std::stoll(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (s.empty() || used != s.size()) throw std::invalid_argument("not an integer: '" + s + "'");
  return v;
}

double to_double(const std::string& s) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (s.empty() || used != s.size() || !std::isfinite(v)) throw std::invalid_argument("not a number: '" + s + "'");
  return v;
}

std::string exact(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

std::string fixed(double v, int digits) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", digits, v);
  return text;
}

std::string join(const std::vector<int64_t>& v) {
  std::string s;
  for (int64_t x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
  return s;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string optional_fixed(const std::optional<double>& v, int digits) { return v ? fixed(*v, digits) : ""; }

std::optional<double> optional_double(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return to_double(s);
}

}  // namespace

void check_plan_for_case(const plan::Header& h, const std::string& path, Collective c, int64_t p,
                         const std::vector<int64_t>& roots) {
  const std::string file = "plan file '" + path + "'";
  if (h.collective != c || h.p != p)
    throw std::invalid_argument(file + " is for " + collective_name(h.collective) + " at p = " + std::to_string(h.p) +
                                ", not " + collective_name(c) + " at p = " + std::to_string(p));
  if (!rooted(c)) return;
  for (int64_t root : roots)
    if (root != h.root)
      throw std::invalid_argument(file + " has root " + std::to_string(h.root) + ", not the case's root " +
                                  std::to_string(root));
}

std::string plan_row_name(const std::string& path) {
  const size_t slash = path.rfind('/');
  std::string name = "plan:" + (slash == std::string::npos ? path : path.substr(slash + 1));
  for (char& c : name)
    if (c == ',' || c == '"' || static_cast<unsigned char>(c) <= ' ' || c == '\x7f') c = '_';
  return name;
}

std::vector<std::string> to_argv(const HarnessArgs& a) {
  std::vector<std::string> argv = {"--collective", collective_name(a.collective),
          "--sizes",      join(a.sizes),
          "--roots",      join(a.roots),
          "--blocks",     std::to_string(a.blocks),
          "--alpha",      exact(a.net.alpha),
          "--beta",       exact(a.net.beta),
          "--gamma",      exact(a.net.gamma),
          "--duplex",     a.net.full_duplex ? "full" : "half",
          "--o",          exact(a.net.o),
          "--g",          exact(a.net.g),
          "--cores-per-node", std::to_string(a.net.cores_per_node),
          "--placement",  a.net.round_robin ? "round-robin" : "block",
          "--intra-alpha", exact(a.net.intra_alpha),
          "--intra-beta", exact(a.net.intra_beta),
          // The ranks see a flat machine: they get its protocol's limit as their eager limit.
          "--eager-below", std::to_string(a.net.eager_below()),
          // Whether the senders pay the bytes, which the LogP trees' gap reads (Net::tree_gap).
          "--bytes-at-sender", a.net.senders_pay() ? "1" : "0",
          "--reps",       std::to_string(a.reps),
          "--warmup",     std::to_string(a.warmup),
          "--op",         operator_name(a.op),
          "--layout",     layout_name(a.layout),
          "--scale",      a.scale ? "1" : "0",
          "--restrictions", a.ignore_restrictions ? "ignore" : "check"};
  // No empty words (smpirun's script drops them); one word per plan path
  // (collsim-mpi gets the user's, which may hold commas; under smpirun the
  // driver passes fixed names, common/scratch_dir.hpp).
  if (!a.algos.empty()) argv.insert(argv.end(), {"--algos", join(a.algos)});
  // ALGO:BYTES:N,..: catalog names hold neither ':' nor ','.
  std::string chosen;
  for (const ChosenBlocks& c : a.chosen_blocks)
    chosen += (chosen.empty() ? "" : ",") + c.algo + ":" + std::to_string(c.bytes) + ":" + std::to_string(c.blocks);
  if (!chosen.empty()) argv.insert(argv.end(), {"--chosen-blocks", chosen});
  for (const auto& path : a.plan_files) argv.insert(argv.end(), {"--plan", path});
  return argv;
}

namespace {

// "ALGO:BYTES:N,..", as to_argv writes it; N >= 1.
std::vector<ChosenBlocks> parse_chosen_blocks(const std::string& text) {
  std::vector<ChosenBlocks> chosen;
  for (const std::string& entry : split(text)) {
    const std::vector<std::string> f = split(entry, ':');
    if (f.size() != 3 || f[0].empty()) throw std::invalid_argument("bad --chosen-blocks entry '" + entry + "'");
    chosen.push_back({f[0], to_int(f[1]), to_int(f[2])});
    if (chosen.back().bytes < 0 || chosen.back().blocks < 1)
      throw std::invalid_argument("bad --chosen-blocks entry '" + entry + "'");
  }
  return chosen;
}

}  // namespace

std::optional<int64_t> chosen_blocks(const HarnessArgs& args, const std::string& algo, int64_t bytes) {
  for (const ChosenBlocks& c : args.chosen_blocks)
    if (c.algo == algo && c.bytes == bytes) return c.blocks;
  return std::nullopt;
}

HarnessArgs from_argv(int argc, const char* const* argv, int first) {
  HarnessArgs a;
  a.roots.clear();
  for (int i = first; i < argc; i += 2) {
    const std::string key = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument(key + " needs a value");
    const std::string val = argv[i + 1];
    if (key == "--collective") a.collective = parse_collective(val);
    else if (key == "--algos") a.algos = split(val);
    else if (key == "--plan") a.plan_files.push_back(val);
    else if (key == "--sizes") for (const auto& s : split(val)) a.sizes.push_back(to_int(s));
    else if (key == "--roots") for (const auto& s : split(val)) a.roots.push_back(to_int(s));
    else if (key == "--blocks") a.blocks = to_int(val);
    else if (key == "--chosen-blocks")
      a.chosen_blocks = parse_chosen_blocks(val);
    else if (key == "--alpha") a.net.alpha = to_double(val);
    else if (key == "--beta") a.net.beta = to_double(val);
    else if (key == "--gamma") a.net.gamma = to_double(val);
    else if (key == "--duplex" && (val == "full" || val == "half")) a.net.full_duplex = val == "full";
    else if (key == "--o") a.net.o = to_double(val);
    else if (key == "--g") a.net.g = to_double(val);
    else if (key == "--cores-per-node") a.net.cores_per_node = to_int(val);
    else if (key == "--placement" && (val == "block" || val == "round-robin")) a.net.round_robin = val == "round-robin";
    else if (key == "--intra-alpha") a.net.intra_alpha = to_double(val);
    else if (key == "--intra-beta") a.net.intra_beta = to_double(val);
    else if (key == "--eager-below") a.net.eager_limit = to_int(val);
    else if (key == "--bytes-at-sender" && (val == "0" || val == "1")) a.net.bytes_at_sender = val == "1";
    else if (key == "--reps") a.reps = static_cast<int>(to_int(val));
    else if (key == "--warmup") a.warmup = static_cast<int>(to_int(val));
    else if (key == "--op") a.op = parse_operator(val);
    else if (key == "--layout") a.layout = parse_layout(val);
    else if (key == "--scale" && (val == "0" || val == "1")) a.scale = val == "1";
    else if (key == "--restrictions" && (val == "check" || val == "ignore")) a.ignore_restrictions = val == "ignore";
    else throw std::invalid_argument("bad option " + key + " " + val);
  }
  if (a.algos.empty() && a.plan_files.empty()) throw std::invalid_argument("--algos or --plan is required");
  if (a.sizes.empty()) throw std::invalid_argument("--sizes is required");
  if (a.roots.empty()) a.roots.push_back(0);
  if (a.blocks < 0 || a.reps < 1 || a.warmup < 0) throw std::invalid_argument("bad --blocks/--reps/--warmup");
  if (a.net.cores_per_node < 1) throw std::invalid_argument("bad --cores-per-node");
  return a;
}

std::string csv_line(const Row& r) {
  return r.collective + "," + r.algorithm + "," + std::to_string(r.p) + "," + std::to_string(r.bytes) + "," +
         std::to_string(r.blocks) + "," + fixed(r.time_us, 3) + "," + optional_fixed(r.model_us, 3) + "," +
         std::to_string(r.root) + "," + std::to_string(r.reps) + "," + r.op + "," + r.layout + "," +
         (r.correct ? "1" : "0") + "," + std::to_string(r.checked_ranks) + "," + optional_fixed(r.wall_s, 2) + "," +
         optional_fixed(r.cpu_s, 2) + "," + optional_fixed(r.mem_mib, 1) + "," + r.engine;
}

Row parse_row(const std::string& line) {
  const std::vector<std::string> f = split(line);
  if (f.size() != 17 || (f[11] != "0" && f[11] != "1"))
    throw std::runtime_error("malformed result row: " + line);
  try {
    return Row{f[0], f[1], to_int(f[2]), to_int(f[3]), to_int(f[4]), to_double(f[5]), optional_double(f[6]),
               to_int(f[7]), static_cast<int>(to_int(f[8])), f[9], f[10], f[11] == "1", to_int(f[12]),
               optional_double(f[13]), optional_double(f[14]), optional_double(f[15]), f[16]};
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("malformed result row (" + std::string(e.what()) + "): " + line);
  }
}

}  // namespace collsim::sim
