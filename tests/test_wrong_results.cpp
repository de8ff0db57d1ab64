// The harness's result check (sim/rank/workload.cpp, Workload::check) must
// see a wrong value wherever it lies (issue 36): a check that read only
// element 0 passed the whole suite, because every test that expected a wrong
// result corrupted element 0. Here, for every collective, a built plan is
// given one fault away from element 0 (the last element alone, a middle
// block, one block on one rank only) and `run --plan` must report
// correct = 0, exit 1, and name a rank and an element inside the corrupted
// block; the unfaulted plan must pass.
//
// A fault takes one block out of one message, at both ends: the receiver
// keeps what it had instead of storing or ⊕-ing the sender's value (for a
// reduction, a missing ⊕ of that block).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "plan_builders.hpp"
#include "protocol.hpp"
#include "run_cli.hpp"

namespace collsim::sim {
namespace {

using Steps = std::vector<std::vector<plan::Step>>;

struct Built {
  plan::Header header;
  Steps steps;  // per rank
};

Built build(Collective c, const std::string& algo, int64_t p, int64_t blocks) {
  const plan::Plan pl = plan::build_plan(c, algo, p, 0, blocks);
  Built b{pl.header, {}};
  for (int64_t r = 0; r < p; ++r) b.steps.push_back(pl.steps(r));
  return b;
}

std::string text_of(const Built& b) {
  plan::Plan pl;
  pl.header = b.header;
  const Steps steps = b.steps;
  pl.steps = [steps](int64_t r) { return steps[static_cast<size_t>(r)]; };
  std::ostringstream out;
  plan::write_plan(out, pl);
  return out.str();
}

bool has(const plan::BlockList& list, int64_t block) {
  for (int64_t x : list)
    if (x == block) return true;
  return false;
}

plan::BlockList without(const plan::BlockList& list, int64_t block) {
  plan::BlockList out;
  for (int64_t x : list)
    if (x != block) out.push_back(x);
  return out;
}

// Takes `block` out of rank r's step `at` (a receive of it) and out of the
// matching send (the k-th message from the peer to r pairs with r's k-th
// receive from it); a half left with no blocks goes, and a step left with
// nothing.
void drop(Built& b, int64_t r, size_t at, int64_t block) {
  auto& mine = b.steps[static_cast<size_t>(r)];
  const int64_t from = mine[at].recv_from;
  int64_t k = 0;
  for (size_t i = 0; i <= at; ++i) k += mine[i].recv_from == from;
  auto& theirs = b.steps[static_cast<size_t>(from)];
  size_t send = 0;
  for (int64_t seen = 0; send < theirs.size(); ++send)
    if (theirs[send].send_to == r && ++seen == k) break;
  ASSERT_LT(send, theirs.size()) << "no matching send";
  ASSERT_TRUE(has(theirs[send].send_blocks, block));
  mine[at].recv_blocks = without(mine[at].recv_blocks, block);
  theirs[send].send_blocks = without(theirs[send].send_blocks, block);
  if (mine[at].recv_blocks.empty()) mine[at].recv_from = -1;
  if (theirs[send].send_blocks.empty()) theirs[send].send_to = -1;
  for (auto* steps : {&mine, &theirs})
    steps->erase(std::remove_if(steps->begin(), steps->end(),
                                [](const plan::Step& s) {
                                  return s.send_to < 0 && s.recv_from < 0 && s.fold_blocks.empty();
                                }),
                 steps->end());
}

// A receive that matters: for a reduction one that ⊕s (a store into a block
// the rank already holds would be a plain copy of a partial it is replaced
// by anyway only in some plans), else any.
bool receives(Collective c, const plan::Step& s, int64_t block) {
  return s.recv_from >= 0 && has(s.recv_blocks, block) && (!reduces(c) || plan::combines(s.combine));
}

// The first such receive of `block` over ranks in order.
std::pair<int64_t, size_t> first_receive(Collective c, const Built& b, int64_t block) {
  for (size_t r = 0; r < b.steps.size(); ++r)
    for (size_t i = 0; i < b.steps[r].size(); ++i)
      if (receives(c, b.steps[r][i], block)) return {static_cast<int64_t>(r), i};
  ADD_FAILURE() << "no receive of block " << block;
  return {0, 0};
}

// Rank r's last receive of `block` (store or ⊕) after which r sends it to
// no one: a fault there shows on r alone. -1 where there is none.
int64_t unforwarded_receive(const Built& b, int64_t r, int64_t block) {
  const auto& steps = b.steps[static_cast<size_t>(r)];
  for (size_t i = steps.size(); i-- > 0;) {
    if (steps[i].send_to >= 0 && has(steps[i].send_blocks, block)) return -1;
    if (steps[i].recv_from >= 0 && has(steps[i].recv_blocks, block)) return static_cast<int64_t>(i);
  }
  return -1;
}

// The case: a collective, its plan's algorithm, p, n (blocks per segment
// for allgatherv and reduce_scatter, else B), and the vector: `units`
// elements (bytes for bcast, allgatherv), cut so that the last block holds
// one unit alone.
struct Case {
  Collective c;
  const char* algo;
  int64_t p, n, units;
};

// p = 4, B = 4, 10 units: blocks of 3, 3, 3, 1. Per rank segment: 40 units,
// 10 a rank (layout even), blocks of 3, 3, 3, 1.
const Case kCases[] = {
    {Collective::bcast, "linear-pipeline", 4, 4, 10},       {Collective::reduce, "linear-pipeline", 4, 4, 10},
    {Collective::allreduce, "halving-doubling", 4, 4, 10},  {Collective::reduce_scatter, "circulant", 4, 4, 40},
    {Collective::allgatherv, "circulant", 4, 4, 40},        {Collective::scan, "hillis-steele", 4, 4, 10},
    {Collective::exscan, "1-doubling", 4, 4, 10},
};

// Units [begin, end) of block `block` in the whole vector.
Span units_of(const Case& k, const plan::Header& h, int64_t block) {
  if (!plan::per_segment(k.c)) return plan::block_units(h, k.units, block);
  const int64_t each = k.units / k.p, owner = block / k.n;  // layout even, units a multiple of p
  const Span s = block_span(each, k.n, block % k.n);
  return {owner * each + s.begin, owner * each + s.end};
}

struct Outcome {
  int status;
  std::string out;
  bool correct;
};

Outcome run(const Case& k, const std::string& plan_text, Operator op, const std::string& name) {
  const int64_t unit_bytes = reduces(k.c) ? element_bytes(k.c, op) : 1;
  const std::string file = test::write_temp(name + ".plan", plan_text);
  const auto r = test::run_collsim_argv({"run", "--collective", collective_name(k.c), "--plan", file, "--p",
                                         std::to_string(k.p), "--size", std::to_string(k.units * unit_bytes), "--op",
                                         operator_name(op), "--layout", "even", "--format", "csv"});
  Outcome o{r.status, r.out, false};
  std::istringstream lines(r.out);
  int rows = 0;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(collective_name(k.c) + std::string(","), 0) == 0) o.correct = parse_row(line).correct, ++rows;
  EXPECT_EQ(rows, 1) << r.out;
  return o;
}

std::vector<Operator> ops_for(const Case& k, const plan::Header& h) {
  if (!reduces(k.c)) return {Operator::bxor};  // no ⊕: the operator is not used
  if (h.commutative) return {Operator::bxor};  // matmul is outside a commutative plan's contract
  return {Operator::bxor, Operator::matmul};
}

// The plan with `block` (never one holding element 0) taken out of rank
// r's step `at` must give correct = 0 and exit 1.
void expect_caught(const Case& k, const Built& good, int64_t r, size_t at, int64_t block, const std::string& what) {
  Built bad = good;
  drop(bad, r, at, block);
  const Span want = units_of(k, good.header, block);
  ASSERT_GT(want.end, want.begin) << "an empty block hides nothing";
  for (Operator op : ops_for(k, good.header)) {
    const std::string label =
        std::string(collective_name(k.c)) + " " + k.algo + " " + operator_name(op) + ", " + what;
    const Outcome o = run(k, text_of(bad), op, std::string("wrong-") + collective_name(k.c) + "-" + what);
    EXPECT_EQ(o.status, 1) << label << "\n" << text_of(bad) << o.out;
    EXPECT_FALSE(o.correct) << label;
  }
}

TEST(WrongResults, TheUnfaultedPlansAreRight) {
  for (const Case& k : kCases) {
    const Built good = build(k.c, k.algo, k.p, k.n);
    for (Operator op : ops_for(k, good.header)) {
      const Outcome o = run(k, text_of(good), op, std::string("right-") + collective_name(k.c));
      EXPECT_EQ(o.status, 0) << collective_name(k.c) << " " << operator_name(op) << "\n" << o.out;
      EXPECT_TRUE(o.correct) << collective_name(k.c);
    }
  }
}

// The last block holds the last unit alone: only it is wrong.
TEST(WrongResults, TheLastElementAloneIsCaught) {
  for (const Case& k : kCases) {
    const Built good = build(k.c, k.algo, k.p, k.n);
    const int64_t last = good.header.blocks - 1;
    ASSERT_EQ(units_of(k, good.header, last).count(), 1) << collective_name(k.c);
    const auto [r, at] = first_receive(k.c, good, last);
    expect_caught(k, good, r, at, last, "last");
  }
}

// Block B/2 (p = 4: the third of four), or where the data is cut per rank
// segment B/2 + 1, rank 2's second block (its first holds element 0 of
// rank 2's reduce_scatter result).
TEST(WrongResults, AMiddleBlockIsCaught) {
  for (const Case& k : kCases) {
    const Built good = build(k.c, k.algo, k.p, k.n);
    const int64_t middle = good.header.blocks / 2 + (plan::per_segment(k.c) ? 1 : 0);
    const auto [r, at] = first_receive(k.c, good, middle);
    expect_caught(k, good, r, at, middle, "middle");
  }
}

// One block on the last rank only (reduce: the root, the only rank with a
// result), a block that rank receives last and passes on to no one; it
// must be the rank the harness names, every lower rank being right. The
// block is none that holds the rank's first result element. (collsim run
// does not pass on the rank's own line saying where it is wrong, so the
// fault's place is fixed by construction: the plan is the same but for
// that one receive, which no later step of the rank forwards.)
TEST(WrongResults, OneRankAloneIsCaught) {
  for (const Case& k : kCases) {
    const Built good = build(k.c, k.algo, k.p, k.n);
    const int64_t r = k.c == Collective::reduce ? 0 : k.p - 1;
    const int64_t first_of_r = plan::per_segment(k.c) && k.c == Collective::reduce_scatter ? r * k.n : 0;
    int64_t block = -1, at = -1;
    for (int64_t b = good.header.blocks - 2; b > 0 && at < 0; --b) {
      if (b != first_of_r && units_of(k, good.header, b).count() > 0 && (at = unforwarded_receive(good, r, b)) >= 0)
        block = b;
    }
    ASSERT_GE(at, 0) << collective_name(k.c) << ": no block that rank " << r << " keeps to itself";
    expect_caught(k, good, r, static_cast<size_t>(at), block, "one-rank");
  }
}

// Issue 36's acceptance: an allreduce plan whose only fault is a missing ⊕
// in the last block (its first ⊕ of the sender's partial, the last block
// holding the last element alone: 13 elements, p = 5) gives correct = 0
// and exit 1 for ring, halving-doubling and circulant, with bxor and
// matmul. Ring's and circulant's plans say `commutative 1`: with matmul
// even the unfaulted plan is wrong (`run --plan` refuses no operator; the
// catalog refuses circulant with matmul, ring's MPI code switches to its
// order-keeping path), so only with bxor, and halving-doubling with both,
// does the unfaulted plan pass and the fault alone make the difference.
TEST(WrongResults, AllreduceMissingTheLastBlocksCombineFails) {
  const Case cases[] = {{Collective::allreduce, "ring", 5, 5, 13},
                        {Collective::allreduce, "halving-doubling", 5, 4, 13},
                        {Collective::allreduce, "circulant", 5, 1, 13}};
  for (const Case& k : cases) {
    const Built good = build(k.c, k.algo, k.p, k.n);
    const int64_t last = good.header.blocks - 1;
    ASSERT_EQ(units_of(k, good.header, last).count(), 1) << k.algo;
    Built bad = good;
    const auto [r, at] = first_receive(k.c, good, last);
    drop(bad, r, at, last);
    for (Operator op : {Operator::bxor, Operator::matmul}) {
      const std::string label = std::string(k.algo) + " " + operator_name(op);
      const Outcome faulty = run(k, text_of(bad), op, std::string("accept-bad-") + k.algo);
      EXPECT_EQ(faulty.status, 1) << label << "\n" << faulty.out;
      EXPECT_FALSE(faulty.correct) << label;
      const Outcome right = run(k, text_of(good), op, std::string("accept-good-") + k.algo);
      const bool in_contract = !good.header.commutative || op == Operator::bxor;
      EXPECT_EQ(right.status, in_contract ? 0 : 1) << label << "\n" << right.out;
      EXPECT_EQ(right.correct, in_contract) << label;
    }
  }
  const auto refused = test::run_collsim_argv(
      {"run", "--collective", "allreduce", "--algo", "circulant", "--op", "matmul", "--p", "5", "--size", "416"});
  EXPECT_EQ(refused.status, 2) << refused.out;
}

}  // namespace
}  // namespace collsim::sim
