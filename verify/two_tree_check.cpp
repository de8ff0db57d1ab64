#include "two_tree_check.hpp"

#include <algorithm>

#include "schedule_csv.hpp"

namespace collsim {

namespace {

std::string str(int64_t v) { return std::to_string(v); }
std::string tree_name(int tree) { return "T" + str(tree); }

// Per tree: children (up to 2 recorded, more counted), depth.
struct Shape {
  std::vector<int32_t> child;  // 2 per rank, -1 unused
  std::vector<int32_t> count;
  std::vector<int8_t> depth;  // -1 not yet known
};

std::optional<Counterexample> check_tree(const TwoTreeTable& t, int tree, int64_t root, Shape& s) {
  const int64_t p = t.p;
  const size_t n = static_cast<size_t>(p);
  auto fail = [&](int64_t rank, const std::string& cond, const std::string& detail) {
    return Counterexample{p, rank, -1, tree_name(tree) + ": " + cond, detail};
  };
  s.child.assign(2 * n, -1);
  s.count.assign(n, 0);
  for (int64_t r = 0; r < p; ++r) {
    const int64_t up = t.parent_of(tree, r);
    if (r == root) continue;
    if (up < 0 || up >= p) return fail(r, "parent in range", "parent " + str(up) + " is not a rank");
    const int32_t c = s.count[up]++;
    if (c < 2) s.child[2 * up + c] = static_cast<int32_t>(r);
  }
  if (s.count[root] != 1)
    return fail(root, "one tree root under the broadcast root", str(s.count[root]) + " children");
  for (int64_t r = 0; r < p; ++r)
    if (s.count[r] > 2) return fail(r, "at most 2 children", str(s.count[r]) + " children");

  // Depth by walking up to a rank of known depth; a walk longer than p is a
  // cycle (a rank reached twice on the way).
  const int max_depth = ceil_log2(p) + 1;
  s.depth.assign(n, -1);
  s.depth[root] = 0;
  std::vector<int32_t> path;
  for (int64_t r = 0; r < p; ++r) {
    path.clear();
    int64_t u = r;
    while (s.depth[u] < 0) {
      if (static_cast<int64_t>(path.size()) > max_depth)
        return fail(r, "depth <= ceil(log2 p) + 1 and no cycle",
                    "more than " + str(max_depth) + " steps up from " + str(r) + " without reaching the root");
      path.push_back(static_cast<int32_t>(u));
      u = t.parent_of(tree, u);
    }
    for (size_t i = path.size(); i-- > 0;) {
      if (s.depth[u] + 1 > max_depth)
        return fail(path[i], "depth <= ceil(log2 p) + 1", "depth " + str(s.depth[u] + 1) + " > " + str(max_depth));
      s.depth[path[i]] = static_cast<int8_t>(s.depth[u] + 1);
      u = path[i];
    }
  }

  // In-order: subtrees bottom-up (deepest first) as ranges [lo, hi] of
  // virtual ranks; a node with children a < b needs hi(a) = v - 1 and
  // lo(b) = v + 1, with one child that child's range must end at v - 1 or
  // start at v + 1. Then every subtree is contiguous and inorder sorted.
  std::vector<int64_t> lo(n), hi(n);
  auto v_of = [&](int64_t r) { return r > root ? r - root - 1 : r - root - 1 + p; };
  std::vector<int32_t> by_depth(n);  // counting sort, deepest first
  std::vector<size_t> start(static_cast<size_t>(max_depth) + 2, 0);
  for (size_t i = 0; i < n; ++i) ++start[static_cast<size_t>(max_depth - s.depth[i]) + 1];
  for (size_t d = 1; d < start.size(); ++d) start[d] += start[d - 1];
  for (size_t i = 0; i < n; ++i) by_depth[start[static_cast<size_t>(max_depth - s.depth[i])]++] = static_cast<int32_t>(i);
  for (int32_t u : by_depth) {
    if (u == root) continue;
    const int64_t v = v_of(u);
    lo[u] = hi[u] = v;
    int32_t a = s.child[2 * u], b = s.child[2 * u + 1];
    if (b >= 0 && v_of(b) < v_of(a)) std::swap(a, b);
    const bool ok = b >= 0   ? hi[a] == v - 1 && lo[b] == v + 1
                    : a >= 0 ? hi[a] == v - 1 || lo[a] == v + 1
                             : true;
    if (!ok)
      return fail(u, "in-order numbering", "subtree ranges of the children do not meet virtual rank " + str(v));
    if (a >= 0) lo[u] = std::min(lo[u], lo[a]), hi[u] = std::max(hi[u], hi[a]);
    if (b >= 0) hi[u] = hi[b];
  }
  return std::nullopt;
}

}  // namespace

std::optional<Counterexample> check_lemma1(const TwoTreeTable& t) {
  const int64_t p = t.p;
  std::vector<uint8_t> out_colors(static_cast<size_t>(p), 0);  // bit c: an out-edge of colour c seen
  for (int64_t r = 0; r < p; ++r) {
    if (t.parent_of(1, r) < 0) continue;
    const int c1 = t.color_of(1, r), c2 = t.color_of(2, r);
    for (int c : {c1, c2})
      if (c != 0 && c != 1) return Counterexample{p, r, -1, "Lemma 1 (colours 0/1)", "colour " + str(c)};
    if (c1 == c2)
      return Counterexample{p, r, -1, "Lemma 1.1 (in-edges in T1 and T2 differ in colour)",
                            "both in-edges (from " + str(t.parent_of(1, r)) + " and " + str(t.parent_of(2, r)) +
                                ") have colour " + str(c1)};
    for (int tree = 1; tree <= 2; ++tree) {
      const int64_t s = t.parent_of(tree, r);
      const int c = t.color_of(tree, r);
      if (out_colors[s] >> c & 1)
        return Counterexample{p, s, -1, "Lemma 1.2 (out-edges in T1 and T2 differ in colour)",
                              "two out-edges of colour " + str(c) + ", one to " + str(r) + " in " + tree_name(tree)};
      out_colors[s] |= static_cast<uint8_t>(1 << c);
    }
  }
  return std::nullopt;
}

std::optional<Counterexample> check_two_tree(const TwoTreeTable& t) {
  const int64_t p = t.p;
  int64_t root = -1;
  for (int64_t r = 0; r < p; ++r) {
    const bool none1 = t.parent_of(1, r) < 0, none2 = t.parent_of(2, r) < 0;
    if (none1 != none2 || (none1 && root >= 0))
      return Counterexample{p, r, -1, "one broadcast root", "rank without a parent in one tree or a second root"};
    if (none1) root = r;
  }
  if (root < 0) return Counterexample{p, 0, -1, "one broadcast root", "every rank has a parent"};
  Shape shape[2];
  for (int tree = 1; tree <= 2; ++tree)
    if (auto c = check_tree(t, tree, root, shape[tree - 1])) return c;
  for (int64_t r = 0; r < p; ++r) {
    if (r == root) continue;
    const bool leaf1 = shape[0].count[r] == 0, leaf2 = shape[1].count[r] == 0;
    if (leaf1 == leaf2 && !(p == 2 && leaf1))
      return Counterexample{p, r, -1, "leaves of T1 are interior in T2 and vice versa",
                            std::string(leaf1 ? "leaf" : "interior") + " in both trees"};
  }
  return check_lemma1(t);
}

namespace {

std::optional<Counterexample> check_children(const TwoTree& tt, const TwoTreeTable& t) {
  const int64_t p = t.p;
  std::vector<int32_t> count(static_cast<size_t>(p));
  for (int tree = 1; tree <= 2; ++tree) {
    std::fill(count.begin(), count.end(), 0);
    for (int64_t r = 0; r < p; ++r)
      if (const int64_t up = t.parent_of(tree, r); up >= 0) ++count[up];
    for (int64_t r = 0; r < p; ++r) {
      int64_t out[2];
      const int got = tt.children(tree, r, out);
      bool ok = got == count[r];
      for (int i = 0; i < got && ok; ++i) ok = t.parent_of(tree, out[i]) == r;
      if (ok && got == 2) ok = tt.to_virtual(out[0]) < tt.to_virtual(out[1]);
      if (!ok)
        return Counterexample{p, r, -1, tree_name(tree) + ": children() agrees with parent()",
                              str(got) + " children listed, " + str(count[r]) + " ranks name it as parent"};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Counterexample> verify_two_tree_p(int64_t p, int64_t root, Coloring coloring) {
  const TwoTree tt(p, root);
  const TwoTreeTable t = two_tree_table(tt, coloring);
  if (auto c = check_two_tree(t)) return c;
  return check_children(tt, t);
}

TwoTreeTable read_two_tree_csv(std::istream& in, const std::string& source_name) {
  const auto rows = read_int_csv(in, "tree,rank,parent,color", source_name);
  auto at = [&](int64_t line) { return source_name + ":" + str(line); };
  int64_t p = 0;
  for (const CsvRow& row : rows) {
    const int64_t tree = row.values[0], rank = row.values[1], parent = row.values[2], color = row.values[3];
    if (tree != 1 && tree != 2) throw MalformedInput(at(row.line) + ": tree " + str(tree) + " is not 1 or 2");
    for (int64_t r : {rank, parent})
      if (r < 0 || r >= kMaxProcs - 1) throw MalformedInput(at(row.line) + ": rank " + str(r) + " out of range");
    if (color != 0 && color != 1) throw MalformedInput(at(row.line) + ": color " + str(color) + " is not 0 or 1");
    p = std::max({p, rank + 1, parent + 1});
  }
  if (p < 2) throw MalformedInput(source_name + ": no rows (two trees need p >= 2)");
  // Checked before allocating, so memory stays bounded by the file's size.
  if (static_cast<int64_t>(rows.size()) != 2 * (p - 1))
    throw MalformedInput(source_name + ": " + str(static_cast<int64_t>(rows.size())) + " rows, expected 2(p-1) = " +
                         str(2 * (p - 1)) + " for p=" + str(p) + " (from the largest rank)");
  TwoTreeTable t;
  t.p = p;
  std::vector<int64_t> line_of[2];
  for (int i = 0; i < 2; ++i) {
    t.parent[i].assign(static_cast<size_t>(p), -1);
    t.color[i].assign(static_cast<size_t>(p), -1);
    line_of[i].assign(static_cast<size_t>(p), 0);
  }
  for (const CsvRow& row : rows) {
    const size_t i = static_cast<size_t>(row.values[0] - 1), rank = static_cast<size_t>(row.values[1]);
    if (line_of[i][rank])
      throw MalformedInput(at(row.line) + ": duplicate row for tree " + str(row.values[0]) + " rank " +
                           str(row.values[1]) + " (first at line " + str(line_of[i][rank]) + ")");
    line_of[i][rank] = row.line;
    t.parent[i][rank] = static_cast<int32_t>(row.values[2]);
    t.color[i][rank] = static_cast<int8_t>(row.values[3]);
  }
  // With 2(p-1) distinct rows and each rank in both trees or in neither,
  // exactly one rank, the broadcast root, has no rows.
  for (int64_t r = 0; r < p; ++r)
    if ((line_of[0][r] != 0) != (line_of[1][r] != 0))
      throw MalformedInput(source_name + ": rank " + str(r) + " has a row in one tree only");
  return t;
}

}  // namespace collsim
