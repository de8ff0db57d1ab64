// The two-tree verifier: passes every p <= 4096 with both colourings, catches
// broken tables (mutation tests) and malformed files (exit 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "run_cli.hpp"
#include "schedule_csv.hpp"
#include "two_tree_check.hpp"

namespace collsim {
namespace {

TEST(TwoTreeVerify, EveryPUpTo4096Passes) {
  for (Coloring c : {Coloring::linear, Coloring::log})
    for (int64_t p = 2; p <= 4096; ++p) {
      const auto failure = verify_two_tree_p(p, p / 3, c);
      ASSERT_FALSE(failure) << describe(*failure);
    }
}

TwoTreeTable table(int64_t p, int64_t root) { return two_tree_table(TwoTree(p, root), Coloring::linear); }

TEST(TwoTreeVerifyMutation, FlippedColorIsCaught) {
  for (int64_t p : {2, 3, 10, 33, 100}) {
    const TwoTreeTable good = table(p, 1 % p);
    ASSERT_FALSE(check_two_tree(good));
    for (int tree = 1; tree <= 2; ++tree)
      for (int64_t r = 0; r < p; ++r) {
        if (good.parent_of(tree, r) < 0) continue;
        TwoTreeTable t = good;
        t.color[tree - 1][r] ^= 1;
        const auto c = check_two_tree(t);
        ASSERT_TRUE(c) << "p=" << p << " tree " << tree << " rank " << r;
        EXPECT_NE(c->condition.find("Lemma 1"), std::string::npos) << describe(*c);
      }
  }
}

// Moving one rank under another parent (colours kept) breaks the trees:
// in-order numbering, child counts, leaf/interior or Lemma 1.
TEST(TwoTreeVerifyMutation, MovedParentIsCaught) {
  for (int64_t p : {5, 10, 33}) {
    const TwoTreeTable good = table(p, 0);
    for (int tree = 1; tree <= 2; ++tree)
      for (int64_t r = 1; r < p; ++r)
        for (int64_t to = 0; to < p; ++to) {
          if (to == r || to == good.parent_of(tree, r)) continue;
          TwoTreeTable t = good;
          t.parent[tree - 1][r] = static_cast<int32_t>(to);
          ASSERT_TRUE(check_two_tree(t)) << "p=" << p << " tree " << tree << " rank " << r << " to " << to;
        }
  }
}

TEST(TwoTreeVerifyMutation, CycleIsCaught) {
  const TwoTreeTable good = table(10, 9);  // Fig. 1: T1 7 -> 3 -> 1 -> 0
  TwoTreeTable t = good;
  t.parent[0][3] = 0;  // 3 -> 0 -> 1 -> 3 ...: a cycle cut off from the root
  const auto c = check_two_tree(t);
  ASSERT_TRUE(c);
  EXPECT_NE(c->condition.find("no cycle"), std::string::npos) << describe(*c);
  TwoTreeTable self = good;
  self.parent[1][4] = 4;
  EXPECT_TRUE(check_two_tree(self));
}

TEST(TwoTreeVerifyMutation, SwappedChildrenBreakInOrder) {
  TwoTreeTable t = table(10, 9);  // T1: 1 has children 0 and 2, 5 has 4 and 6
  std::swap(t.parent[0][2], t.parent[0][6]);
  const auto c = check_two_tree(t);
  ASSERT_TRUE(c);
  EXPECT_NE(c->condition.find("in-order"), std::string::npos) << describe(*c);
}

// A valid table with a third child under one node is caught as such.
TEST(TwoTreeVerifyMutation, ThreeChildrenAreCaught) {
  TwoTreeTable t = table(10, 9);
  t.parent[0][8] = 1;  // T1: 1 gets children 0, 2 and 8
  const auto c = check_two_tree(t);
  ASSERT_TRUE(c);
  EXPECT_NE(c->condition.find("at most 2"), std::string::npos) << describe(*c);
}

// The structure checks, each made to fail first on a table that passes
// every check before it.
// A second broadcast root: rank 3 without a parent in T1 only, then a
// table where every rank has a parent.
TEST(TwoTreeVerifyMutation, OneBroadcastRoot) {
  TwoTreeTable half = table(10, 9);
  half.parent[0][3] = -1;
  auto c = check_two_tree(half);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->condition, "one broadcast root");
  EXPECT_EQ(c->rank, 3);
  TwoTreeTable none = table(10, 9);
  none.parent[0][9] = none.parent[1][9] = 0;
  c = check_two_tree(none);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->condition, "one broadcast root");
  EXPECT_EQ(c->detail, "every rank has a parent");
}

// T1 as a chain 0 -> 1 -> .. -> 14 under broadcast root 15 (virtual rank =
// rank): in order (each node's one child starts its range at v + 1), one
// tree root, at most one child each, but depth 15 > ceil(log2 16) + 1 = 5.
TEST(TwoTreeVerifyMutation, DepthBound) {
  const int64_t p = 16;
  TwoTreeTable t = table(p, p - 1);
  t.parent[0][0] = static_cast<int32_t>(p - 1);
  for (int64_t r = 1; r < p - 1; ++r) t.parent[0][static_cast<size_t>(r)] = static_cast<int32_t>(r - 1);
  const auto c = check_two_tree(t);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->condition, "T1: depth <= ceil(log2 p) + 1");
  EXPECT_EQ(c->rank, 5);  // the first rank below depth 5
}

// T2 the same tree as T1: both are valid trees, but every leaf of T1 is a
// leaf of T2 too.
TEST(TwoTreeVerifyMutation, LeavesOfOneTreeAreInteriorInTheOther) {
  for (int64_t p : {3, 10, 33}) {
    TwoTreeTable t = table(p, 0);
    t.parent[1] = t.parent[0];
    const auto c = check_two_tree(t);
    ASSERT_TRUE(c) << "p=" << p;
    EXPECT_EQ(c->condition, "leaves of T1 are interior in T2 and vice versa") << describe(*c);
    EXPECT_EQ(c->detail, "leaf in both trees");
  }
}

// TwoTree::children against another broadcast root's parents (a valid
// table): the per-rank functions disagree with the table, and are named.
TEST(TwoTreeVerifyMutation, ChildrenDisagreeingWithParents) {
  for (int64_t p : {5, 10, 33}) {
    TwoTreeChecker checker;
    const TwoTreeTable other_root = two_tree_parents(TwoTree(p, 1));
    ASSERT_FALSE(checker.check_structure(other_root));
    ASSERT_FALSE(checker.check_children(TwoTree(p, 1), other_root));
    const auto c = checker.check_children(TwoTree(p, 0), other_root);
    ASSERT_TRUE(c) << "p=" << p;
    EXPECT_NE(c->condition.find("children() agrees with parent()"), std::string::npos) << describe(*c);
  }
}

// The remaining rules by name: a parent that is no rank, a second child of
// the broadcast root, a colour other than 0/1, a rank whose two in-edges
// share a colour (Lemma 1.1), and a rank's two in-edge colours swapped, which
// keeps 1.1 but gives some sender two out-edges of one colour (Lemma 1.2).
TEST(TwoTreeVerifyMutation, ParentRangeTreeRootAndLemma1ByName) {
  auto first_failure = [](const TwoTreeTable& t) {
    const auto c = check_two_tree(t);
    return c ? c->condition : std::string("passes");
  };
  TwoTreeTable outside = table(10, 9);
  outside.parent[0][5] = 10;
  EXPECT_EQ(first_failure(outside), "T1: parent in range");
  TwoTreeTable two_roots = table(10, 9);
  for (int64_t r = 0; r < 9; ++r)  // a leaf of T1 moved under the broadcast root
    if (std::count(two_roots.parent[0].begin(), two_roots.parent[0].end(), r) == 0) {
      two_roots.parent[0][static_cast<size_t>(r)] = 9;
      break;
    }
  EXPECT_EQ(first_failure(two_roots), "T1: one tree root under the broadcast root");
  TwoTreeTable colour = table(10, 9);
  colour.color[1][4] = 2;
  EXPECT_EQ(first_failure(colour), "Lemma 1 (colours 0/1)");
  TwoTreeTable same = table(10, 9);
  same.color[1][4] = same.color[0][4];
  EXPECT_EQ(first_failure(same), "Lemma 1.1 (in-edges in T1 and T2 differ in colour)");
  TwoTreeTable swapped = table(10, 9);
  std::swap(swapped.color[0][4], swapped.color[1][4]);
  EXPECT_EQ(first_failure(swapped), "Lemma 1.2 (out-edges in T1 and T2 differ in colour)");
}

std::string schedule_csv(int64_t p, int64_t root) {
  return test::run_collsim("schedule two-tree --format csv --p " + std::to_string(p) + " --root " +
                           std::to_string(root))
      .out;
}

TEST(TwoTreeVerifyCli, CsvHeaderAndRows) {
  const std::string csv = schedule_csv(10, 9);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "tree,rank,parent,color");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 2 * 9);
  EXPECT_NE(csv.find("\n1,3,7,"), std::string::npos);  // Fig. 1: 3's T1 parent is 7
  EXPECT_NE(csv.find("\n2,7,8,"), std::string::npos);  // 7's T2 parent is 8
}

TEST(TwoTreeVerifyCli, FileRoundTripAndMutation) {
  const std::string good = schedule_csv(100, 42);
  const auto ok = test::run_collsim("verify two-tree --file " + test::write_temp("tt_good.csv", good));
  EXPECT_EQ(ok.status, 0) << ok.out;
  std::string bad = good;
  const size_t pos = bad.find("\n1,0,");
  ASSERT_NE(pos, std::string::npos);
  char& color = bad[bad.find('\n', pos + 1) - 1];
  color = color == '0' ? '1' : '0';
  const auto fail = test::run_collsim("verify two-tree --file " + test::write_temp("tt_flip.csv", bad));
  EXPECT_EQ(fail.status, 1) << fail.out;
  EXPECT_NE(fail.out.find("FAIL p=100"), std::string::npos) << fail.out;
}

// Unlike the circulant CSV before issue 22, the two-tree CSV carries its
// root: the rank without rows, parent of both tree roots. Every root of a few
// p checks out, and the OK line names the root it found.
TEST(TwoTreeVerifyCli, EveryRootRoundTrips) {
  for (int64_t p : {9, 17, 18})
    for (int64_t root = 0; root < p; ++root) {
      const auto path = test::write_temp("tt_root.csv", schedule_csv(p, root));
      const auto res = test::run_collsim("verify two-tree --file " + path);
      EXPECT_EQ(res.status, 0) << "p=" << p << " root=" << root << ": " << res.out;
      EXPECT_NE(res.out.find("p=" + std::to_string(p) + " root=" + std::to_string(root) + ","), std::string::npos)
          << res.out;
    }
}

TEST(TwoTreeVerifyCli, MalformedFilesExit2) {
  const std::string good = schedule_csv(5, 0);
  const std::string rows = good.substr(good.find('\n') + 1);
  const std::pair<const char*, std::string> cases[] = {
      {"empty", ""},
      {"header", "tree,rank,parent\n" + rows},
      {"fields", "tree,rank,parent,color\n1,2,3\n"},
      {"integer", "tree,rank,parent,color\n1,x,0,0\n"},
      {"tree3", "tree,rank,parent,color\n3,1,0,0\n"},
      {"color2", "tree,rank,parent,color\n1,1,0,2\n"},
      {"negative", "tree,rank,parent,color\n1,-1,0,0\n"},
      {"duplicate", good + rows.substr(0, rows.find('\n') + 1)},
      {"missing", good.substr(0, good.rfind('\n', good.size() - 2) + 1)},
      {"onetree", "tree,rank,parent,color\n1,1,0,0\n1,2,0,1\n"},
  };
  for (const auto& [name, text] : cases) {
    const auto r = test::run_collsim("verify two-tree --file " + test::write_temp(std::string("tt_") + name + ".csv", text),
                                     true);
    EXPECT_EQ(r.status, 2) << name << ": " << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << name << ": " << r.out;
  }
}

TEST(TwoTreeVerifyCli, BadArgumentsExit2) {
  for (const char* args : {"schedule two-tree --p 1", "schedule two-tree --p 10 --coloring foo",
"schedule two-tree --p 10 --root 10",
                           "verify two-tree --p 2:5 --coloring linear,foo", "verify two-tree --p 2:5 --coloring log,log",
                           "verify two-tree --p 1:5", "verify two-tree --p 5:3", "verify two-tree",
                           "verify two-tree --file /nonexistent.csv"}) {
    const auto r = test::run_collsim(args, true);
    EXPECT_EQ(r.status, 2) << args << ": " << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ": " << r.out;
  }
  EXPECT_EQ(test::run_collsim("verify two-tree --p 2:64 --coloring log").status, 0);
}

// One sweep with both colourings checks the trees once and each colouring's
// Lemma 1: it passes where both pass alone, and a table whose structure holds
// but whose colouring breaks Lemma 1 is reported with the colouring named.
TEST(TwoTreeVerify, BothColoringsInOneSweep) {
  const auto both = test::run_collsim("verify two-tree --p 2:300 --coloring linear,log");
  EXPECT_EQ(both.status, 0) << both.out;
  EXPECT_NE(both.out.find("--coloring linear,log"), std::string::npos) << both.out;
  TwoTreeChecker checker;
  for (int64_t p : {2, 7, 10, 64, 1000}) EXPECT_FALSE(checker.verify_p(p, p / 2, {Coloring::linear, Coloring::log}));
}

}  // namespace
}  // namespace collsim
