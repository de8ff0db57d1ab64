// `collsim verify KIND ...`: one row per schedule kind.
#include "args.hpp"
#include "commands.hpp"
#include "verify_kinds.hpp"

namespace collsim {

namespace {

constexpr cli::Entry kVerifiers[] = {
    {"circulant", verify_circulant, "circulant broadcast schedules (Traff 2024), over a range of p or from a file"},
    {"exscan", verify_exscan, "exclusive scan plans (Traff 2025): symbolic execution over intervals, round and ⊕ bounds"},
    {"plan", verify_plan, "any plan file (collsim-plan 1): symbolic execution, matching, deadlock, results"},
    {"scan", verify_scan, "inclusive scan plans (Hillis-Steele): symbolic execution over intervals, round and ⊕ bounds"},
    {"two-tree", verify_two_tree, "two-tree broadcast trees and 0/1 colourings (Sanders/Speck/Traff), range of p or file"},
};

}  // namespace

int verify_command(int argc, char** argv) { return cli::dispatch("collsim verify", kVerifiers, argc, argv); }

}  // namespace collsim
