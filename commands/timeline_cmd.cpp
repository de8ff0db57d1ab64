// `collsim timeline`: every message and ⊕ of one collective call, from the
// plan engine (its event sink) or from SMPI (SimGrid's Paje trace), as a
// CSV and a picture, with the critical path through them.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <stdexcept>

#include "commands.hpp"
#include "engine_run.hpp"
#include "output.hpp"
#include "paje_trace.hpp"
#include "sim_options.hpp"
#include "timeline.hpp"
#include "work_limits.hpp"

namespace collsim {

using cli::po::value;

namespace {

const char* const kUsage =
    "usage: collsim timeline --algo NAME --p P --size BYTES --out DIR [options]\n\n"
    "Simulates one call of a collective (as `collsim run` does, on the plan engine with --engine loggp or\n"
    "on SMPI, the default) and writes into DIR:\n"
    "  timeline.csv  one row per message (kind = send) and per combine (kind = combine), in order of start:\n"
    "    kind              send or combine\n"
    "    rank, peer        the sender and the receiver; a combine's rank (peer empty)\n"
    "    bytes             the message's payload; the bytes a combine folds\n"
    "    step              the sender's step (engine) or MPI call (SMPI) in the collective, from 0\n"
    "    post_us           when the sender posted it (a combine: its start)\n"
    "    start_us          when the transfer began: at the post on a platform with o or g (eager sends), else\n"
    "                      once the receiver had posted its receive too (SMPI: entered the call that took it)\n"
    "    end_us            when the receiver had it: its last byte's arrival, or the receive's posting where\n"
    "                      that came later (an eager message waits in the receiver's buffer); a combine's end\n"
    "    sender_done_us    when the sender could go on (eager: after max(o,g) + bytes*G; else the arrival;\n"
    "                      SMPI: the end of its MPI call, if earlier than end_us)\n"
    "    receiver_done_us  when the receive was complete (the arrival, or its later posting, plus o)\n"
    "    on_critical_path  1 for the events of the critical path\n"
    "  timeline.png  ranks down, time across: sends, receives, combines and idle time in their colours, the\n"
    "                critical path drawn over them; above 64 ranks a heat view of ranks in bins\n"
    "  timeline.dat, timeline.gp  the picture's data and gnuplot script\n"
    "All times are microseconds since the collective started. The critical path is the chain of events that\n"
    "ends at the last one, each following the event that determined its start (the message whose arrival it\n"
    "waited for, or its rank's previous operation); its length is the sum of its events' spans.\n"
    "SMPI: the events come from SimGrid's own Paje trace of the run (tracing/smpi with internals, so SimGrid's\n"
    "built-ins show their messages too); combines are its 'computing' states, which the harness's operators\n"
    "charge; inside a SimGrid built-in only a message's post and arrival are seen, so both ends count as\n"
    "busy until the arrival. The trace of the timed call follows --warmup untimed calls.\n";

// The engine's events as a Timeline, in microseconds; a rank's finish is
// its last release (the engine's own rule).
class TimelineSink : public engine::EventSink {
 public:
  explicit TimelineSink(int64_t p) { t_.p = p, t_.finish.assign(static_cast<size_t>(p), 0); }
  void message(const engine::MessageEvent& m) override {
    add({sim::TimelineEvent::Kind::message, m.from, m.to, m.bytes, m.step, m.post * 1e6, m.start * 1e6,
         m.end * 1e6, m.sender_done * 1e6, m.receiver_done * 1e6});
  }
  void combine(const engine::CombineEvent& c) override {
    add({sim::TimelineEvent::Kind::combine, c.rank, -1, c.bytes, c.step, c.start * 1e6, c.start * 1e6, c.end * 1e6,
         c.end * 1e6, c.end * 1e6});
  }
  sim::Timeline& timeline() { return t_; }

 private:
  void add(const sim::TimelineEvent& e) {
    for (int64_t r : {e.rank, e.peer})
      if (r >= 0) t_.finish[static_cast<size_t>(r)] = std::max(t_.finish[static_cast<size_t>(r)], e.release(r));
    t_.events.push_back(e);
  }
  sim::Timeline t_;
};

// The request of the command line: one algorithm, one size, one root.
sim::SimRequest read_request(const cli::po::variables_map& vm) {
  sim::SimRequest req;
  const sim::Collective c = sim::read_common_options(vm, req);
  cli::reject_given(vm, {"reps"}, "has no meaning here: a timeline is of one timed call");
  req.sizes = sim::parse_sizes(vm["size"].as<std::string>(), "--size");
  if (req.sizes.size() != 1) throw cli::UsageError("--size: one size (a timeline is of one call)");
  req.algos = sim::read_algorithms(c, vm["algo"].as<std::string>(), "--algo");
  if (req.algos.size() != 1) throw cli::UsageError("--algo takes one name");
  if (const std::string unmet = sim::unmet_restriction(*req.algos[0], req.op); !unmet.empty())
    throw cli::UsageError(unmet);
  sim::read_blocks(vm, req);
  return req;
}

// The timeline on the plan engine (the smpi rules), and its row.
sim::Row engine_timeline(const sim::SimRequest& req, const sim::EngineRules& rules, sim::Timeline& t) {
  if (rules.set != sim::EngineRules::Set::smpi)
    throw cli::UsageError("timeline traces the engine's smpi rules only (--rules smpi)");
  TimelineSink sink(req.p);
  std::vector<sim::Row> rows;
  try {
    rows = sim::evaluate_plans(req, rules, "", &sink);
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(std::string(e.what()) + " (--engine smpi runs every algorithm)");
  }
  t = std::move(sink.timeline());
  return rows.at(0);
}

std::string title(const sim::SimRequest& req, const sim::Row& row) {
  return std::string(row.collective) + " " + row.algorithm + ": p = " + std::to_string(req.p) + ", " +
         sim::format_bytes(row.bytes) + ", " + std::to_string(row.blocks) + " block" + (row.blocks == 1 ? "" : "s") +
         ", " + (row.engine == "smpi" ? "SMPI" : "plan engine (smpi rules)") + ": " +
         [](double us) {
           char text[32];
           std::snprintf(text, sizeof text, "%.3f us", us);
           return std::string(text);
         }(row.time_us) +
         "\n" + platforms::summary(req.platform);
}

void report(const std::string& out, const sim::Row& row, const sim::Timeline& t, const sim::CriticalPath& path) {
  int64_t messages = 0, path_messages = 0;
  for (const auto& e : t.events) messages += e.kind == sim::TimelineEvent::Kind::message;
  for (size_t i : path.events) path_messages += t.events[i].kind == sim::TimelineEvent::Kind::message;
  std::printf("%s %s p=%lld %s blocks=%lld engine=%s\n", row.collective.c_str(), row.algorithm.c_str(),
              (long long)row.p, sim::format_bytes(row.bytes).c_str(), (long long)row.blocks, row.engine.c_str());
  std::printf("simulated time: %.6f us (the trace's last finish: %.6f us)\n", row.time_us, t.time_us());
  std::printf("events: %lld messages, %lld combines\n", (long long)messages,
              (long long)(t.events.size() - static_cast<size_t>(messages)));
  std::printf("critical path: %zu events (%lld messages, %lld combines), length %.6f us, %.6f us between them\n",
              path.events.size(), (long long)path_messages, (long long)(path.events.size() - path_messages),
              path.length_us, path.gaps_us);
  std::printf("wrote %s/timeline.csv and %s/timeline.png\n", out.c_str(), out.c_str());
}

}  // namespace

int timeline_command(int argc, char** argv) {
  cli::po::options_description opts("timeline options");
  opts.add_options()("algo", value<std::string>()->required(), "algorithm name (see the list above)")(
      "size", value<std::string>()->required(), "bytes, with units B, KiB, MiB, GiB (one size)")(
      "blocks", value<std::string>(),
      "block count n of a pipelined algorithm, or model: the closed-form model's n (default: the block policy, "
      "which on nodes of several cores or a topology searches n on the engine: docs/simulation.md)")(
      "out", value<std::string>()->required(), "directory for timeline.csv and timeline.png (created if missing)");
  sim::add_common_options(opts);
  sim::add_engine_options(opts);
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm, std::string(kUsage) + "\n" + sim::algorithm_help())) return 0;
  sim::SimRequest req = read_request(vm);
  const std::optional<sim::EngineRules> rules = sim::read_engine_options(vm);
  const sim::Runner runner = rules ? sim::Runner::engine : sim::Runner::smpi;
  sim::check_work(req, runner, sim::max_messages(vm, sim::default_max_messages(runner)));
  const std::string out = vm["out"].as<std::string>();
  sim::make_directories(out);
  sim::Timeline t;
  std::vector<std::string> notes;
  const sim::Row row = rules ? engine_timeline(req, *rules, t) : sim::simulate_traced(req, [&](const auto& trace) {
    t = sim::read_paje_timeline(trace, req.p, req.platform.has_overheads(), notes);
  });
  for (const std::string& n : notes) std::fprintf(stderr, "collsim: warning: %s\n", n.c_str());
  const sim::CriticalPath path = sim::critical_path(t);
  sim::write_file(std::filesystem::path(out) / "timeline.csv", sim::timeline_csv(t, path));
  sim::plot_timeline(out, t, path, title(req, row));
  report(out, row, t, path);
  if (!row.correct) {
    std::fprintf(stderr, "collsim: error: %s gave a wrong result (correct = 0)\n", row.algorithm.c_str());
    return 1;
  }
  return 0;
}

}  // namespace collsim
