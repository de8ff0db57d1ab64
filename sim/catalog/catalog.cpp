// The catalog's rows, generated from algorithms/algorithms.def.
#include "catalog.hpp"

#include <algorithm>
#include <stdexcept>

#include "plan_builders.hpp"

namespace collsim::sim {

namespace {

// An algorithm of ours as its file states it (def), with kBlocks where the
// list's cut pipelines it.
unsigned limits_of(const AlgorithmDef& def, plan::Cut cut) {
  return def.limits | (cut == plan::Cut::pipelined ? kBlocks : kNone);
}

const std::vector<Algorithm> kAlgorithms = {
#define COLLSIM_OURS(coll, name, id, cut, shape) \
  {name, Collective::coll, limits_of(def_##id, plan::Cut::cut), def_##id.model, def_##id.description},
#define COLLSIM_PLAN(coll, name, id, cut, shape) \
  {name, Collective::coll, kPlan | limits_of(def_##id, plan::Cut::cut), def_##id.model, def_##id.description},
#define COLLSIM_BUILTIN(coll, name, limits, what) \
  {"smpi:" name, Collective::coll, kSmpiBuiltin | (limits), nullptr, "SimGrid built-in: " what},
#include "algorithms.def"
#undef COLLSIM_OURS
#undef COLLSIM_PLAN
#undef COLLSIM_BUILTIN
};

template <typename Enum, size_t N>
Enum parse_name(const std::string& name, const Enum (&values)[N], const char* (*name_of)(Enum), const char* what) {
  std::string known;
  for (Enum v : values) {
    if (name == name_of(v)) return v;
    known += (known.empty() ? "" : ", ") + std::string(name_of(v));
  }
  throw std::invalid_argument("unknown " + std::string(what) + " '" + name + "'; known: " + known);
}

}  // namespace

const char* operator_name(Operator op) { return op == Operator::bxor ? "bxor" : "matmul"; }

Operator parse_operator(const std::string& name) {
  static constexpr Operator all[] = {Operator::bxor, Operator::matmul};
  return parse_name(name, all, operator_name, "operator");
}

int64_t element_bytes(Collective c, Operator op) {
  if (!reduces(c)) return 1;
  return op == Operator::bxor ? 8 : 32;
}

const char* layout_name(Layout l) {
  static const char* const names[] = {"even", "ramp", "single", "mod3"};
  return names[static_cast<int>(l)];
}

Layout parse_layout(const std::string& name) {
  static constexpr Layout all[] = {Layout::even, Layout::ramp, Layout::single, Layout::mod3};
  return parse_name(name, all, layout_name, "layout");
}

std::string Algorithm::builtin_name() const {
  const std::string n = name;
  return has(kSmpiBuiltin) ? n.substr(n.find(':') + 1) : n;
}

const std::vector<Algorithm>& algorithms() { return kAlgorithms; }

size_t catalog_index(const Algorithm& a) { return static_cast<size_t>(&a - kAlgorithms.data()); }

std::string unmet_restriction(const Algorithm& a, bool commutative_op) {
  if (a.has(kCommutative) && !commutative_op)
    return std::string(collective_name(a.collective)) + " '" + a.name + "' needs a commutative operator";
  return "";
}

std::string unmet_restriction(const Algorithm& a, Operator op) {
  const std::string unmet = unmet_restriction(a, op != Operator::matmul);
  return unmet.empty() ? unmet : unmet + "; --op matmul is not (use bxor, or an algorithm that keeps the order)";
}

std::vector<const Algorithm*> algorithms_of(Collective c) {
  std::vector<const Algorithm*> list;
  for (const auto& a : kAlgorithms)
    if (a.collective == c) list.push_back(&a);
  return list;
}

std::vector<const Algorithm*> our_algorithms(Collective c) {
  std::vector<const Algorithm*> list;
  for (const Algorithm* a : algorithms_of(c))
    if (!a->has(kSmpiBuiltin)) list.push_back(a);
  return list;
}

std::string known_names(Collective c) {
  std::string names;
  for (const Algorithm* a : algorithms_of(c)) names += (names.empty() ? "" : ", ") + std::string(a->name);
  return names;
}

const Algorithm& find_algorithm(Collective c, const std::string& name) {
  for (const Algorithm* a : algorithms_of(c))
    if (name == a->name) return *a;
  throw std::invalid_argument("unknown " + std::string(collective_name(c)) + " algorithm '" + name +
                              "'; known: " + known_names(c));
}

}  // namespace collsim::sim
