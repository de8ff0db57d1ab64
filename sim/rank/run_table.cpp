#include "run_table.hpp"

#include <iterator>
#include <stdexcept>

#include "plan_executor.hpp"

namespace collsim::sim {

// Declared from the list: algorithms/<collective>/<name>.cpp defines each
// of ours that is not a plan, smpi_builtin.cpp the built-ins' MPI calls.
#define COLLSIM_OURS(coll, name, id, cut, shape) void id(const CollArgs&);
#define COLLSIM_PLAN(coll, name, id, cut, shape)
#define COLLSIM_BUILTIN(coll, name, limits, what) void coll##_smpi(const CollArgs&);
#include "algorithms.def"
#undef COLLSIM_OURS
#undef COLLSIM_PLAN
#undef COLLSIM_BUILTIN

namespace {

constexpr RunFunction kRuns[] = {
#define COLLSIM_OURS(coll, name, id, cut, shape) id,
#define COLLSIM_PLAN(coll, name, id, cut, shape) [](const CollArgs& a) { run_catalog_plan(Collective::coll, name, a); },
#define COLLSIM_BUILTIN(coll, name, limits, what) coll##_smpi,
#include "algorithms.def"
#undef COLLSIM_OURS
#undef COLLSIM_PLAN
#undef COLLSIM_BUILTIN
};

}  // namespace

RunFunction run_function(const Algorithm& a) {
  const size_t i = catalog_index(a);
  if (i >= std::size(kRuns) || algorithms().size() != std::size(kRuns))
    throw std::logic_error("run table and catalog differ in length");
  return kRuns[i];
}

}  // namespace collsim::sim
