// Options that `collsim run` and `collsim compare` share, read into one
// SimRequest: --collective, --p, --root, --reps, --warmup and the platform.
#pragma once

#include <string>

#include "launch.hpp"

namespace collsim::sim {

void add_common_options(cli::po::options_description& opts);
// Fills platform, p, roots, reps and warmup; returns the collective.
Collective read_common_options(const cli::po::variables_map& vm, SimRequest& req);
// The algorithms of `list` ("a,b" or "all") for collective c; unknown names
// are a UsageError listing the known ones.
std::vector<const Algorithm*> read_algorithms(Collective c, const std::string& list);
// Help text listing every algorithm of every collective with its description.
std::string algorithm_help();

}  // namespace collsim::sim
