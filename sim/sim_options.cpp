#include "sim_options.hpp"

#include <stdexcept>

namespace collsim::sim {

using cli::po::value;

void add_common_options(cli::po::options_description& opts) {
  std::string collectives;
  for (Collective c : kCollectives) collectives += (collectives.empty() ? "" : ", ") + std::string(collective_name(c));
  opts.add_options()("collective", value<std::string>()->default_value("bcast"), collectives.c_str())(
      "op", value<std::string>()->default_value("bxor"),
      "reductions: bxor (MPI_LONG, commutative) or matmul (2x2 uint64 matrices, 32 B, not commutative)")(
      "layout", value<std::string>()->default_value("even"),
      "reduce_scatter, allgatherv: how the vector is split: even, ramp (rank r gets ~ r+1 shares), single (all at --root)")(
      "p", value<std::string>()->required(), "number of ranks, >= 1")(
      "root", value<std::string>()->default_value("0"), "root rank, 0 <= root < p")(
      "reps", value<std::string>(), "timed repetitions (minimum is reported)")(
      "warmup", value<std::string>(), "untimed warm-up repetitions")(
      "scale", value<std::string>()->default_value("auto"),
      ("on, off or auto (on from p = " + std::to_string(kScaleAutoRanks) +
       "): lean SimGrid settings (64 KiB stacks, no guard pages, tree barrier) and buffers of which only " +
       std::to_string(kWindowUnits) + " units (bytes or elements) at the start are private and checked on every rank, " +
       "the rest shared by all ranks; reps 1, warmup 0 unless given")
          .c_str());
  add_platform_options(opts);
}

Collective read_common_options(const cli::po::variables_map& vm, SimRequest& req) {
  Collective c;
  try {
    c = parse_collective(vm["collective"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(e.what());
  }
  try {
    req.op = parse_operator(vm["op"].as<std::string>());
    req.layout = parse_layout(vm["layout"].as<std::string>());
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(e.what());
  }
  req.p = cli::parse_int(vm["p"].as<std::string>(), "--p", 1, 1 << 20);
  req.roots = {cli::parse_int(vm["root"].as<std::string>(), "--root", 0, req.p - 1)};
  const std::string scale = vm["scale"].as<std::string>();
  cli::require_one_of(scale, "scale", {"on", "off", "auto"});
  req.scale = scale == "on" || (scale == "auto" && req.p >= kScaleAutoRanks);
  // The simulated time is deterministic, and a repetition at p = 16,384 costs seconds.
  if (req.scale) req.reps = 1, req.warmup = 0;
  if (vm.count("reps")) req.reps = static_cast<int>(cli::parse_int(vm["reps"].as<std::string>(), "--reps", 1, 1000));
  if (vm.count("warmup"))
    req.warmup = static_cast<int>(cli::parse_int(vm["warmup"].as<std::string>(), "--warmup", 0, 1000));
  req.platform = platform_from(vm, req.p);
  return c;
}

std::vector<const Algorithm*> read_algorithms(Collective c, const std::string& list) {
  if (list == "all") return algorithms_of(c);
  std::vector<const Algorithm*> algos;
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    try {
      algos.push_back(&find_algorithm(c, list.substr(start, comma - start)));
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError(e.what());
    }
    if (comma == std::string::npos) return algos;
    start = comma + 1;
  }
}

std::string algorithm_help() {
  std::string text = "algorithms (--algo):\n";
  for (const Algorithm& a : algorithms()) {
    std::string name = a.name;
    name.resize(std::max<size_t>(name.size(), 32), ' ');
    text += "  " + std::string(collective_name(a.collective)) + "  " + name + a.description +
            (a.has(kBlocks) ? " [--blocks]" : "") + "\n";
  }
  return text;
}

}  // namespace collsim::sim
