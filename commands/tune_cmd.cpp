// `collsim tune`: decision tables from simulation (issue 21). For every
// collective, communicator size p and message size of the sweep, the
// candidates run on the platform and the fastest is chosen; the choices,
// merged where neighbouring sizes (and then neighbouring p) agree, become
//   --target ompi     an Open MPI 4.1 coll/tuned dynamic rules file over the
//                     Open MPI algorithms SimGrid ports (ompi_rules.hpp),
//                     their segment sizes and fan-outs as simulated;
//   --target collsim  a rules file for libcollsim-pmpi.so (COLLSIM_RULES;
//                     sim/catalog/tuning_rules.hpp) over all our algorithms
//                     with the block count each ran with.
// Beside FILE: FILE's stem + ".csv" (every candidate's time at every point,
// `chosen` marking the choice) and one PNG per collective and operator
// class (stem-C-CLASS.png: the chosen algorithm per cell, labelled with its
// margin, the runner-up's time over the chosen one).
//
// Operators: Open MPI's rules do not key on the operator, so an ompi table
// for a reduction holds only algorithms that Open MPI runs in rank order,
// swept with a non-commutative operator (matmul), unless --commutative says
// the table is for commutative operators only (swept with bxor; the file's
// header says so). A collsim table keys on it: reductions are swept twice,
// with matmul over every algorithm that keeps order and with bxor over all.
//
// Between swept points a rule extends from one point to the next (the
// lower point's choice holds up to the next point), as Open MPI reads its
// own tables; below the first p and size the first point's choice holds.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <sstream>

#include "commands.hpp"
#include "compare_report.hpp"
#include "launch.hpp"
#include "ompi_rules.hpp"
#include "output.hpp"
#include "region_plot.hpp"
#include "sim_options.hpp"
#include "tuning_rules.hpp"
#include "work_limits.hpp"

namespace collsim {

namespace {

using cli::po::value;
namespace fs = std::filesystem;
using sim::Collective;
using sim::OperatorClass;

enum class Target { ompi, collsim };

// One candidate's time at one point of the sweep.
struct Measured {
  std::string algorithm;
  int64_t blocks = 1;
  double time_us = 0;
};

// The sweep of one collective and operator class: candidates by point.
struct Sweep {
  Collective collective;
  OperatorClass op;
  std::vector<std::string> candidates;                                  // colour order
  std::map<std::pair<int64_t, int64_t>, std::vector<Measured>> points;  // (p, bytes) -> fastest first
};

sim::Operator test_operator(OperatorClass op) {
  return op == OperatorClass::non_commutative ? sim::Operator::matmul : sim::Operator::bxor;
}

// The operator classes a table for c keys on.
std::vector<OperatorClass> classes(Collective c, Target target, bool commutative) {
  if (!sim::reduces(c)) return {OperatorClass::any};
  if (target == Target::ompi) return {commutative ? OperatorClass::commutative : OperatorClass::non_commutative};
  return {OperatorClass::commutative, OperatorClass::non_commutative};
}

// The algorithms that may be chosen for c under operator class op.
std::vector<const sim::Algorithm*> candidates(Collective c, OperatorClass op, Target target) {
  std::vector<const sim::Algorithm*> algos;
  if (target == Target::ompi) {
    sim::ompi_collective_id(c);  // refuses collectives without a mapping
    for (const sim::OmpiAlgorithm* a : sim::ompi_algorithms(c))
      if (op != OperatorClass::non_commutative || a->keeps_order)
        algos.push_back(&sim::find_algorithm(c, a->smpi_name));
  } else {
    for (const sim::Algorithm* a : sim::our_algorithms(c))
      if (sim::unmet_restriction(*a, test_operator(op)).empty()) algos.push_back(a);
  }
  return algos;
}

Sweep run_sweep(Collective c, OperatorClass op, Target target, const std::vector<int64_t>& ps,
                const std::vector<int64_t>& sizes, const cli::po::variables_map& vm, cli::Progress& progress,
                double done, double share) {
  Sweep sweep{c, op, {}, {}};
  sim::SimRequest req;
  req.algos = candidates(c, op, target);
  for (const sim::Algorithm* a : req.algos) sweep.candidates.push_back(a->name);
  req.sizes = sizes;
  req.op = test_operator(op);
  std::vector<sim::Row> all_rows;  // for the warnings of wrong results
  for (size_t i = 0; i < ps.size(); ++i) {
    req.p = ps[i];
    req.platform = sim::platform_from(vm, ps[i]);
    std::vector<std::string> failures;
    const auto rows = sim::simulate(
        sim::keep_within_limit(req, sim::Runner::smpi, sim::max_messages(vm, sim::default_max_messages(sim::Runner::smpi))),
        [&](size_t batch, size_t total) {
          progress.update(done + share * (double(i) + double(batch) / double(total)) / double(ps.size()),
                          std::string(sim::collective_name(c)) + " " + sim::operator_class_name(op) +
                              ", p = " + std::to_string(ps[i]));
        },
        &failures);
    for (const auto& f : failures)
      std::fprintf(stderr, "collsim: warning: %s, p = %lld: %s\n", sim::collective_name(c), (long long)ps[i],
                   f.c_str());
    for (const sim::Row& r : rows)
      if (r.correct) sweep.points[{r.p, r.bytes}].push_back({r.algorithm, r.blocks, r.time_us});
    all_rows.insert(all_rows.end(), rows.begin(), rows.end());
  }
  sim::warn_wrong_results(all_rows, std::string("not a candidate there (") + sim::collective_name(c) + ", " +
                                        sim::operator_class_name(op) + " operators)");
  for (auto& [point, measured] : sweep.points)
    std::stable_sort(measured.begin(), measured.end(),
                     [](const Measured& a, const Measured& b) { return a.time_us < b.time_us; });
  return sweep;
}

// The choice at a point: its algorithm and the numbers that go with it.
struct Choice {
  std::string algorithm;
  int64_t blocks = 1, fanout = 0, segsize = 0;
  bool operator==(const Choice& o) const {
    return algorithm == o.algorithm && blocks == o.blocks && fanout == o.fanout && segsize == o.segsize;
  }
};

Choice choice_at(const Sweep& s, Target target, int64_t p, int64_t bytes) {
  const Measured& best = s.points.at({p, bytes}).front();
  if (target == Target::collsim) {
    const bool pipelined = sim::find_algorithm(s.collective, best.algorithm).has(sim::kBlocks);
    return {best.algorithm, pipelined ? best.blocks : 1, 0, 0};
  }
  const sim::OmpiAlgorithm& a = *sim::ompi_by_smpi_name(s.collective, best.algorithm);
  return {best.algorithm, 1, a.fanout(p), a.segsize(p, bytes, sim::element_bytes(s.collective, test_operator(s.op)))};
}

// Per swept p, the sizes where the choice changes (the first size always)
// with the choice from there on.
using SizeRules = std::vector<std::pair<int64_t, Choice>>;
SizeRules size_rules(const Sweep& s, Target target, int64_t p, const std::vector<int64_t>& sizes) {
  SizeRules rules;
  for (int64_t bytes : sizes) {
    if (!s.points.count({p, bytes})) continue;  // no candidate gave a result there
    const Choice c = choice_at(s, target, p, bytes);
    if (rules.empty() || !(rules.back().second == c)) rules.push_back({bytes, c});
  }
  if (!rules.empty()) rules.front().first = 0;
  return rules;
}

bool operator!=(const SizeRules& a, const SizeRules& b) {
  if (a.size() != b.size()) return true;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].first != b[i].first || !(a[i].second == b[i].second)) return true;
  return false;
}

// Swept p whose size rules differ from the p before: (p, its rules).
std::vector<std::pair<int64_t, SizeRules>> merged(const Sweep& s, Target target, const std::vector<int64_t>& ps,
                                                  const std::vector<int64_t>& sizes) {
  std::vector<std::pair<int64_t, SizeRules>> out;
  for (int64_t p : ps) {
    SizeRules rules = size_rules(s, target, p, sizes);
    if (rules.empty()) continue;
    if (out.empty() || out.back().second != rules) out.push_back({p, std::move(rules)});
  }
  return out;
}

std::string ompi_table(const std::vector<Sweep>& sweeps, const std::vector<int64_t>& ps,
                       const std::vector<int64_t>& sizes, const std::string& comment) {
  std::vector<sim::OmpiCollectiveRules> rules;
  for (const Sweep& s : sweeps) {
    sim::OmpiCollectiveRules coll{s.collective, {}};
    for (const auto& [p, by_size] : merged(s, Target::ompi, ps, sizes)) {
      sim::OmpiCommRule comm{p, {}};
      for (const auto& [bytes, c] : by_size)
        comm.messages.push_back({bytes, sim::ompi_by_smpi_name(s.collective, c.algorithm), c.fanout, c.segsize});
      coll.comms.push_back(std::move(comm));
    }
    if (!coll.comms.empty()) rules.push_back(std::move(coll));
  }
  return sim::ompi_rules_text(rules, comment);
}

std::string collsim_table(const std::vector<Sweep>& sweeps, const std::vector<int64_t>& ps,
                          const std::vector<int64_t>& sizes, const std::string& comment) {
  std::vector<sim::TuningRule> rules;
  for (const Sweep& s : sweeps) {
    const auto by_p = merged(s, Target::collsim, ps, sizes);
    for (size_t i = 0; i < by_p.size(); ++i) {
      const int64_t ranks_min = i == 0 ? 1 : by_p[i].first;
      const int64_t ranks_max = i + 1 < by_p.size() ? by_p[i + 1].first - 1 : INT32_MAX;
      const SizeRules& by_size = by_p[i].second;
      for (size_t j = 0; j < by_size.size(); ++j) {
        sim::TuningRule r;
        r.collective = s.collective;
        r.ranks_min = ranks_min;
        r.ranks_max = ranks_max;
        r.bytes_min = by_size[j].first;
        r.bytes_max = j + 1 < by_size.size() ? by_size[j + 1].first - 1 : INT64_MAX;
        r.op = s.op;
        r.algorithm = &sim::find_algorithm(s.collective, by_size[j].second.algorithm);
        r.blocks = by_size[j].second.blocks;
        rules.push_back(r);
      }
    }
  }
  std::ostringstream text;
  sim::write_tuning_rules(text, rules, comment);
  return text.str();
}

std::string sweep_csv(const std::vector<Sweep>& sweeps) {
  std::string csv =
      "collective,operator,p,bytes,algorithm,ompi_algorithm,segsize_bytes,fanout,blocks,time_us,chosen,"
      "time_over_chosen\n";
  for (const Sweep& s : sweeps)
    for (const auto& [point, measured] : s.points)
      for (const Measured& m : measured) {
        const sim::OmpiAlgorithm* o = sim::ompi_by_smpi_name(s.collective, m.algorithm);
        const int64_t element = sim::element_bytes(s.collective, test_operator(s.op));
        char line[512];
        std::snprintf(line, sizeof line, "%s,%s,%lld,%lld,%s,%s,%lld,%lld,%lld,%.3f,%d,%.4f\n",
                      sim::collective_name(s.collective), sim::operator_class_name(s.op), (long long)point.first,
                      (long long)point.second, m.algorithm.c_str(), o ? std::to_string(o->number).c_str() : "",
                      (long long)(o ? o->segsize(point.first, point.second, element) : 0),
                      (long long)(o ? o->fanout(point.first) : 0), (long long)m.blocks, m.time_us,
                      &m == &measured.front() ? 1 : 0, m.time_us / measured.front().time_us);
        csv += line;
      }
  return csv;
}

// stem-C-CLASS.png per sweep: the chosen algorithm per cell and its margin.
void plot(const fs::path& file, const std::vector<Sweep>& sweeps, const std::vector<int64_t>& ps,
          const std::vector<int64_t>& sizes, const std::string& platform, std::vector<fs::path>& pictures) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  std::string gp;
  for (const Sweep& s : sweeps) {
    const std::string stem =
        file.stem().string() + "-" + sim::collective_name(s.collective) + "-" + sim::operator_class_name(s.op);
    sim::RegionCells cells;
    for (const auto& [point, measured] : s.points)
      cells[point] = {measured.front().algorithm,
                      measured.size() > 1 ? measured[1].time_us / measured.front().time_us : 1};
    const sim::RegionGrid grid = sim::winners_only({ps, sizes, s.candidates}, cells);
    sim::write_file(dir / (stem + ".dat"), sim::region_data(grid, cells));
    gp += sim::region_image(grid, stem + ".dat", stem + ".png",
                                                     "Chosen: " + std::string(sim::collective_name(s.collective)) +
                                                         " (" + sim::operator_class_name(s.op) +
                                                         " operators); label: runner-up time / chosen time\nplatform " +
                                                         platform,
                                                     "%.2f");
    pictures.push_back(dir / (stem + ".png"));
  }
  const std::string script = file.stem().string() + ".gp";
  sim::write_file(dir / script, gp);
  sim::run_gnuplot(dir, script);
}

// Every case of the sweep fits, before the first starts: whole elements
// of the operator (matmul's 32 bytes in a non-commutative sweep), and p
// copies of each size within the simulation's memory.
void check_sizes(const std::vector<Collective>& collectives, int64_t largest_p, const std::vector<int64_t>& sizes,
                 Target target, bool commutative) {
  for (Collective c : collectives)
    for (OperatorClass op : classes(c, target, commutative)) {
      sim::SimRequest req;
      req.algos = candidates(c, op, target);
      req.sizes = sizes;
      req.op = test_operator(op);
      req.p = largest_p;
      try {
        sim::check_sizes(req);
      } catch (const std::invalid_argument& e) {
        throw cli::UsageError(std::string("--sizes: ") + e.what() +
                              (op == OperatorClass::non_commutative ? " (the non-commutative sweep)" : ""));
      }
    }
}

}  // namespace

int tune_command(int argc, char** argv) {
  cli::po::options_description opts("tune options");
  opts.add_options()("collective", value<std::string>()->required(), "collectives: C or C,C,..")(
      "p", value<std::string>()->required(), "communicator sizes: a,b,c, A:B (as map) or A:B:STEP")(
      "sizes", value<std::string>()->default_value("32:4MiB"), "message sizes in bytes: A:B (doubling) or a,b,c")(
      "target", value<std::string>()->required(),
      "ompi (Open MPI 4.1 coll/tuned dynamic rules) or collsim (COLLSIM_RULES for libcollsim-pmpi.so)")(
      "commutative", cli::po::bool_switch(),
      "ompi: the table is for commutative operators only (all Open MPI algorithms, swept with bxor)")(
      "out", value<std::string>()->required(), "the rules file; FILE's stem .csv and -C-CLASS.png beside it");
  sim::add_platform_options(opts);
  sim::add_max_messages_option(opts);
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm,
                          "usage: collsim tune --collective C[,C..] --p LIST --target ompi|collsim --out FILE "
                          "[--sizes A:B] [--commutative] [platform options]\n"))
    return 0;
  const std::string target_name = vm["target"].as<std::string>();
  cli::require_one_of(target_name, "target", {"ompi", "collsim"});
  const Target target = target_name == "ompi" ? Target::ompi : Target::collsim;
  const bool commutative = vm["commutative"].as<bool>();
  if (commutative && target == Target::collsim)
    throw cli::UsageError("--commutative: a collsim table keys on the operator; it is for --target ompi");
  std::vector<Collective> collectives;
  for (const std::string& name : cli::parse_names(vm["collective"].as<std::string>(), "--collective")) {
    try {
      collectives.push_back(sim::parse_collective(name));
    } catch (const std::invalid_argument& e) {
      throw cli::UsageError(std::string("--collective: ") + e.what());
    }
    if (target == Target::ompi) sim::ompi_collective_id(collectives.back());
  }
  const std::vector<int64_t> ps = sim::parse_p_set(vm["p"].as<std::string>(), 1 << 16);
  const std::vector<int64_t> sizes = sim::parse_sizes(vm["sizes"].as<std::string>(), "--sizes");
  check_sizes(collectives, ps.back(), sizes, target, commutative);
  const fs::path file = vm["out"].as<std::string>();
  if (file.filename().empty() || file.stem().empty()) throw cli::UsageError("--out: a file name, not a directory");
  const std::string platform = platforms::describe(sim::platform_from(vm, ps.back()), ps.back());
  if (file.has_parent_path()) sim::make_directories(file.parent_path());

  std::vector<Sweep> sweeps;
  size_t total = 0;
  for (Collective c : collectives) total += classes(c, target, commutative).size();
  cli::Progress progress("tune");
  for (Collective c : collectives)
    for (OperatorClass op : classes(c, target, commutative)) {
      sweeps.push_back(run_sweep(c, op, target, ps, sizes, vm, progress, double(sweeps.size()) / double(total),
                                 1.0 / double(total)));
      if (sweeps.back().points.empty())
        throw std::runtime_error(std::string("no candidate gave a result for ") + sim::collective_name(c));
    }
  std::string comment = "collsim tune --target " + target_name + ": " + platform;
  comment += "\nchosen by simulated time (SimGrid " +
             std::string(target == Target::ompi ? "ports of Open MPI's" : "SMPI, our") + " algorithms), p " +
             vm["p"].as<std::string>() + ", sizes " + vm["sizes"].as<std::string>();
  if (target == Target::ompi)
    comment += commutative ? "\nFOR COMMUTATIVE OPERATORS ONLY: reductions may pick algorithms that reorder operands"
                           : "\nreductions: only algorithms that Open MPI 4.1 runs in rank order (any operator)";
  const std::string table =
      target == Target::ompi ? ompi_table(sweeps, ps, sizes, comment) : collsim_table(sweeps, ps, sizes, comment);
  sim::write_file(file, table);
  fs::path csv = file;
  csv.replace_extension(".csv");
  if (csv == file) csv += ".csv";
  sim::write_file(csv, sweep_csv(sweeps));
  std::vector<fs::path> pictures;
  plot(file, sweeps, ps, sizes, platform, pictures);
  std::printf("tune: %s (%s), %s", file.string().c_str(), target_name.c_str(), csv.string().c_str());
  for (const fs::path& png : pictures) std::printf(", %s", png.string().c_str());
  std::printf(" (%.0f s)\n", progress.elapsed_seconds());
  return 0;
}

}  // namespace collsim
