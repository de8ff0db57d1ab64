// The command layer of the simulation commands (the only part of sim/ that
// knows Boost.Program_options): options that `collsim run`, `compare` and
// `map` share, read into one SimRequest: --collective, --p, --root, --reps,
// --warmup and the platform.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "engine_run.hpp"
#include "launch.hpp"
#include "work_limits.hpp"

namespace collsim::sim {

// --platform, --alpha, --beta, --bw, --duplex, --gamma, --nodes,
// --cores-per-node, --intra-alpha, --intra-beta.
void add_platform_options(cli::po::options_description& opts);
// The platform the options describe for p ranks. `alphabeta` without --nodes
// gets ⌈p / cores⌉ nodes; a FILE.xml is used as it is (its hosts must be
// named node-0, node-1, ... as the generator names them) with --alpha/--beta
// for the model. Throws cli::UsageError for unknown names and bad values.
platforms::Platform platform_from(const cli::po::variables_map& vm, int64_t p);

// The size and p-set parsers live on the ground floor (values.hpp).
using cli::parse_bytes;
using cli::parse_p_set;
using cli::parse_sizes;

// --max-messages N (run, compare, map, tune, plan).
void add_max_messages_option(cli::po::options_description& opts);
// --max-messages where given, else `default_limit`.
double max_messages(const cli::po::variables_map& vm, double default_limit);

// Keeps the algorithms of req.algos that have a plan (the engine's `all`).
void keep_plans(SimRequest& req);
// The algorithms of req.algos whose restrictions req breaks, dropped with a
// warning on stderr each (compare and map skip them; run refuses).
void skip_unrunnable(SimRequest& req);

void add_common_options(cli::po::options_description& opts);
// Fills platform, p, roots, reps and warmup; returns the collective. --p is
// one number up to 2^20 (SMPI), up to 2^31 − 1 with --engine loggp; with
// `p_list`, a comma-separated list is allowed there and returned (req.p is
// its first entry).
Collective read_common_options(const cli::po::variables_map& vm, SimRequest& req,
                               std::vector<int64_t>* p_list = nullptr);

// --engine smpi|loggp, --rules smpi|loggopsim, --L --o --g --G.
void add_engine_options(cli::po::options_description& opts);
// The plan engine's rules where --engine loggp, else nothing (and the
// engine's options are refused). UsageError on bad values.
std::optional<EngineRules> read_engine_options(const cli::po::variables_map& vm);
// The algorithms of `list` ("a,b" or "all", given as option `what`) for
// collective c; unknown, empty and repeated names are a UsageError (unknown
// ones listing the known ones). Entries plan:FILE go to plan_paths where
// given, else they are an error.
std::vector<const Algorithm*> read_algorithms(Collective c, const std::string& list, const std::string& what,
                                              std::vector<std::string>* plan_paths = nullptr);
// Reads each plan file's header and checks it against c, req.p and
// req.roots (UsageError, naming the file and line); adds them to req.plans
// with absolute paths (smpirun runs in a directory of its own).
void read_plan_files(const std::vector<std::string>& paths, Collective c, SimRequest& req);
// --blocks where given: the one algorithm of req must take a block count
// (kBlocks), and n lies in [1, the smallest positive size] (UsageError).
void read_blocks(const cli::po::variables_map& vm, SimRequest& req);
// Help text for --algo/--algos: where the list of algorithms is (`collsim algorithms`).
std::string algorithm_help();

}  // namespace collsim::sim
