// `collsim verify KIND ...`: one row per schedule kind.
#include "args.hpp"
#include "commands.hpp"
#include "verify_kinds.hpp"

namespace collsim {

namespace {

constexpr cli::Entry kVerifiers[] = {
    {"circulant", verify_circulant, "circulant broadcast schedules (Traff 2024), over a range of p or from a file"},
};

}  // namespace

int verify_command(int argc, char** argv) { return cli::dispatch("collsim verify", kVerifiers, argc, argv); }

}  // namespace collsim
