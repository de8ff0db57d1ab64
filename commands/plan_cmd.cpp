// `collsim plan`: an algorithm's plan (algorithms/plan_builders.hpp) as a
// plan file (plan.hpp's text format) or as LogGOPSim's GOAL
// (schedules/plan_goal.hpp).
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>

#include "args.hpp"
#include "circulant.hpp"
#include "commands.hpp"
#include "logp_tree.hpp"
#include "output.hpp"
#include "plan_builders.hpp"
#include "plan_goal.hpp"
#include "sim_options.hpp"
#include "work_limits.hpp"

namespace collsim {

namespace {

using cli::po::value;

const char* const kUsage =
    "usage: collsim plan --collective C --algo NAME --p P --size BYTES [--root R] [--blocks N]\n"
    "                    [--node-size C] [--lag X] [--order lock-step|graph]\n"
    "                    [--format plan|goal] [--out FILE]\n"
    "An algorithm's plan: the messages it sends, rank by rank, in order (issue 15); the plan\n"
    "executor runs the same plan under SMPI and Open MPI.\n"
    "  plan: the plan text format (docs/plan-format.md).\n"
    "  goal: LogGOPSim's GOAL (txt2bin, then LogGOPSim); --size bytes cut into the plan's\n"
    "        blocks give each message's size; a combine (and forming acc+input) is\n"
    "        `calc BYTES`, i.e. gamma*bytes with gamma = 1 time unit per byte; each rank's\n"
    "        operations are chained in step order by `requires`; the k-th message\n"
    "        between a sender and a receiver has tag k.\n"
    "Blocks: pipelined algorithms (bcast circulant, linear-pipeline, binary-tree-pipeline,\n"
    "two-tree) need --blocks; scatter-allgather and ring use p blocks, halving-doubling\n"
    "p' = 2^floor(log2 p) (their own cut); the others send the whole vector in every\n"
    "message, as 1 block unless --blocks says more.\n"
    "Nodes: the node-aware algorithms group C consecutive ranks to a node (--node-size,\n"
    "default 1: every rank its own node); the others know no nodes and refuse it.\n"
    "Lag: the LogP trees (bcast logp-tree) are shaped by X, a send's time until its receiver\n"
    "sends on over the sender's gap between sends (--lag, default 1: the binomial tree; run\n"
    "and compare take it from the platform and the size); the others refuse it.\n"
    "Order: lock-step (default): each rank's steps one after another; graph: the same\n"
    "steps as a dependency graph (collsim-plan 2), each step requiring only the earlier\n"
    "ones whose blocks it reads or writes and the last send to its peer, a sendrecv split\n"
    "into a send and a receive: the overlapped form, which runs as an MPI library's\n"
    "nonblocking code would (docs/plan-format.md).";

// The block count: --blocks, or the algorithm's own where it has one.
int64_t block_count(const plan::PlanAlgorithm& a, const cli::po::variables_map& vm, int64_t p) {
  if (vm.count("blocks")) return cli::parse_int(vm["blocks"].as<std::string>(), "--blocks", 1, plan::kMaxBlocks);
  if (a.cut != plan::Cut::pipelined) return plan::cut_blocks(a.cut, p);
  throw cli::UsageError(std::string("--blocks is required for the pipelined algorithm '") + a.name + "'");
}

void write(std::ostream& out, const std::string& format, const plan::Plan& plan, const std::string& algo,
           int64_t bytes) {
  const plan::Header& h = plan.header;
  if (format == "plan") return plan::write_plan(out, plan);
  plan::write_goal(out, plan, bytes,
                   std::string("collsim plan: ") + collective_name(h.collective) + " " + algo + ", p " +
                       std::to_string(h.p) + ", root " + std::to_string(h.root) + ", size " + std::to_string(bytes) +
                       ", blocks " + std::to_string(h.blocks));
}

}  // namespace

int plan_command(int argc, char** argv) {
  cli::po::options_description opts("plan options");
  opts.add_options()("collective", value<std::string>()->required(), "bcast, reduce, allreduce, scan, exscan, ...")(
      "algo", value<std::string>()->required(), "algorithm name, as in the catalog (collsim run --help)")(
      "p", value<std::string>()->required(), "number of ranks, 1 <= p <= 2^31-1")(
      "size", value<std::string>()->required(), "bytes (units B, KiB, MiB, GiB) of the message / of each rank's vector (GOAL sizes)")(
      "root", value<std::string>()->default_value("0"), "root (bcast, reduce), 0 <= root < p")(
      "blocks", value<std::string>(), "number of blocks B (see below)")(
      "node-size", value<std::string>()->default_value("1"), "ranks per node, block-wise (node-aware algorithms)")(
      "lag", value<std::string>()->default_value("1"), "LogP trees' lag, 1 <= X <= 65536 (see below)")(
      "order", value<std::string>()->default_value("lock-step"), "lock-step or graph (see below)")(
      "format", value<std::string>()->default_value("plan"), "plan or goal")(
      "out", value<std::string>(), "output file (default: standard output)");
  sim::add_max_messages_option(opts);
  cli::po::variables_map vm;
  if (!cli::parse_options(argc, argv, opts, vm, kUsage)) return 0;
  const std::string format = vm["format"].as<std::string>(), algo = vm["algo"].as<std::string>();
  cli::require_one_of(format, "format", {"plan", "goal"});
  const std::string order = vm["order"].as<std::string>();
  cli::require_one_of(order, "order", {"lock-step", "graph"});
  const int64_t p = cli::parse_int(vm["p"].as<std::string>(), "--p", 1, kMaxProcs);
  const int64_t root = cli::parse_int(vm["root"].as<std::string>(), "--root", 0, p - 1);
  const int64_t bytes = sim::parse_bytes(vm["size"].as<std::string>(), "--size");
  const int64_t node_size = cli::parse_int(vm["node-size"].as<std::string>(), "--node-size", 1, kMaxProcs);
  const double lag = cli::parse_real(vm["lag"].as<std::string>(), "--lag", 1, kMaxLag);
  plan::Plan plan;
  engine::Work work;
  try {
    const Collective c = parse_collective(vm["collective"].as<std::string>());
    const plan::PlanAlgorithm& a = plan::find_plan_algorithm(c, algo);
    if (!a.build_on_nodes)
      cli::reject_given(vm, {"node-size"}, "is for the node-aware algorithms; " + algo + " knows no nodes");
    if (!a.build_with_lag) cli::reject_given(vm, {"lag"}, "is for the LogP trees; " + algo + " is not one");
    const int64_t blocks = block_count(a, vm, p);
    work.messages = engine::plan_messages(c, algo, p, blocks, node_size).value_or(0);
    if (format == "plan") {  // GOAL text gives sizes, not block lists
      work.blocks = engine::listed_block_numbers(c, algo, p, blocks);
      work.blocks_name = "block numbers";
      work.block_weight = engine::kExportMessagesPerBlockNumber;
    }
    work.seconds = work.messages / engine::kExportMessagesPerSecond + work.blocks * engine::kExportSecondsPerBlockNumber;
    engine::check_work(work, sim::max_messages(vm, engine::kDefaultMaxExportMessages),
                       std::string("the plan of ") + collective_name(c) + " " + algo + " at p = " + std::to_string(p));
    plan = plan::build_plan(c, algo, p, root, blocks, {node_size, lag});
    if (order == "graph") plan = plan::overlapped(std::move(plan));
  } catch (const std::invalid_argument& e) {
    throw cli::UsageError(e.what());
  }
  const sim::Heartbeat beat("plan", work.seconds);
  if (!vm.count("out")) {
    write(std::cout, format, plan, algo, bytes);
    return 0;
  }
  const std::string path = vm["out"].as<std::string>();
  std::ofstream file(path);
  if (!file) throw sim::OutputError("cannot write '" + path + "'");
  write(file, format, plan, algo, bytes);
  file.close();
  if (!file) throw sim::OutputError("cannot write '" + path + "'");
  return 0;
}

}  // namespace collsim
