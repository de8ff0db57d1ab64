// Pictures: the DOT text holds exactly the schedule's edges with the right
// colours, Graphviz renders it, bad output names are usage errors.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "run_cli.hpp"
#include "viz.hpp"

namespace collsim {
namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Every tree edge appears once, in the colour of its 0/1 label; p = 10 is
// the paper's Fig. 1 (T1 edge 7 -> 3, T2 edge 6 -> 2, root edges 9 -> 7, 9 -> 6).
TEST(Viz, TwoTreeDotHasEveryEdgeInItsColour) {
  const TwoTree tt(10, 9);
  const TwoTreeTable t = two_tree_table(tt, Coloring::linear);
  const std::string dot = viz::two_tree_dot(tt, t);
  EXPECT_EQ(count(dot, "->"), 18);
  EXPECT_EQ(count(dot, "doublecircle"), 1);
  const char* colour[2] = {"#1f5fbf", "#d62728"};
  for (int tree = 1; tree <= 2; ++tree)
    for (int64_t r = 0; r < 9; ++r) {
      const int64_t up = t.parent_of(tree, r);
      const std::string from = up == 9 ? "root" : "t" + std::to_string(tree) + "_" + std::to_string(up);
      const std::string edge = from + " -> t" + std::to_string(tree) + "_" + std::to_string(r) + " [color=\"" +
                               colour[t.color_of(tree, r)] + "\"]";
      EXPECT_EQ(count(dot, edge), 1) << edge;
    }
  EXPECT_EQ(count(dot, "root -> t1_7 "), 1);
  EXPECT_EQ(count(dot, "root -> t2_6 "), 1);
  EXPECT_EQ(count(dot, "t1_7 -> t1_3 "), 1);
  EXPECT_EQ(count(dot, "t2_6 -> t2_2 "), 1);
}

// p = 17 (seed 003 Table 1): q = 5; rank 5 receives in round 3 from 0 block 3
// and in round 0 from 4 block -5 (column r = 5 of the table).
TEST(Viz, CirculantDotHighlightsOneReceiveSchedule) {
  const std::string dot = viz::circulant_dot(CirculantSchedule(17), 5);
  EXPECT_EQ(count(dot, "->"), 17 * 5);
  EXPECT_EQ(count(dot, "penwidth=3"), 5);
  EXPECT_EQ(count(dot, "r0 -> r5 "), 1);
  EXPECT_NE(dot.find("round 3: from 0, block 3"), std::string::npos);
  EXPECT_NE(dot.find("round 0: from 4, block -5"), std::string::npos);
  EXPECT_EQ(count(viz::circulant_dot(CirculantSchedule(17), std::nullopt), "penwidth=3"), 0);
}

TEST(VizCli, RendersSvgAndRejectsBadNames) {
  const std::string svg = test::fresh_path("tt10.svg");
  ASSERT_EQ(test::run_collsim("viz two-tree --p 10 --out " + svg).status, 0);
  std::stringstream text;
  text << std::ifstream(svg).rdbuf();
  EXPECT_NE(text.str().find("<svg"), std::string::npos);
  EXPECT_EQ(test::run_collsim("viz circulant --p 9 --rank 3 --out " + test::fresh_path("c9.dot")).status, 0);
  for (const char* args : {"viz two-tree --p 10 --out x.txt", "viz two-tree --p 1 --out x.dot",
                           "viz two-tree --p 600 --out x.dot", "viz circulant --p 9 --rank 9 --out x.dot",
                           "viz two-tree --p 10", "viz sphere --p 3 --out x.dot"}) {
    const auto r = test::run_collsim(args, true);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(count(r.out, "\n"), 1) << args << ": " << r.out;
  }
}

}  // namespace
}  // namespace collsim
