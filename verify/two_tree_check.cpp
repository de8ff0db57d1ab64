#include "two_tree_check.hpp"

#include <algorithm>

#include "schedule_csv.hpp"

namespace collsim {

namespace {

std::string str(int64_t v) { return std::to_string(v); }
std::string tree_name(int tree) { return "T" + str(tree); }

}  // namespace

std::optional<Counterexample> TwoTreeChecker::check_tree(const TwoTreeTable& t, int tree, int64_t root) {
  const int64_t p = t.p;
  const size_t n = static_cast<size_t>(p);
  auto fail = [&](int64_t rank, const std::string& cond, const std::string& detail) {
    return Counterexample{p, rank, -1, tree_name(tree) + ": " + cond, detail};
  };
  Shape& s = shape_[tree - 1];
  s.child.resize(2 * n);  // child[2u + i] for i < count[u]
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

  // Breadth-first from the root along the recorded children, level by level
  // (level d: depth d): as every other rank names one parent, each is reached
  // at most once, and the ranks not reached are those whose way up never
  // meets the root (a cycle).
  const int max_depth = ceil_log2(p) + 1;
  order_.resize(n);
  order_[0] = static_cast<int32_t>(root);
  size_t reached = 1;
  for (size_t level = 0, end = 1, depth = 0; level < end; level = end, end = reached, ++depth)
    for (size_t head = level; head < end; ++head) {
      const int32_t u = order_[head];
      for (int i = 0; i < s.count[u]; ++i) {
        const int32_t c = s.child[2 * static_cast<size_t>(u) + i];
        if (static_cast<int>(depth) + 1 > max_depth)
          return fail(c, "depth <= ceil(log2 p) + 1", "depth " + str(depth + 1) + " > " + str(max_depth));
        order_[reached++] = c;
      }
    }
  if (reached < n) {
    std::vector<bool> seen(n);
    for (size_t i = 0; i < reached; ++i) seen[static_cast<size_t>(order_[i])] = true;
    const auto r = static_cast<int64_t>(std::find(seen.begin(), seen.end(), false) - seen.begin());
    return fail(r, "spanning tree, no cycle", "the parents from " + str(r) + " up never reach the broadcast root");
  }
  return check_in_order(t, tree, root);
}

// In-order: subtrees bottom-up (the breadth-first order backwards) as ranges
// [lo, hi] of virtual ranks; a node with children a < b needs hi(a) = v - 1
// and lo(b) = v + 1, with one child that child's range must end at v - 1 or
// start at v + 1. Then every subtree is contiguous and inorder sorted.
std::optional<Counterexample> TwoTreeChecker::check_in_order(const TwoTreeTable& t, int tree, int64_t root) {
  const int64_t p = t.p;
  const Shape& s = shape_[tree - 1];
  lo_.resize(static_cast<size_t>(p));
  hi_.resize(static_cast<size_t>(p));
  auto v_of = [&](int64_t r) { return static_cast<int32_t>(r > root ? r - root - 1 : r - root - 1 + p); };
  for (size_t i = order_.size(); i-- > 1;) {  // order_[0] is the broadcast root
    const int32_t u = order_[i], v = v_of(u), kids = s.count[u];
    int32_t a = kids > 0 ? s.child[2 * static_cast<size_t>(u)] : -1, b = kids > 1 ? s.child[2 * static_cast<size_t>(u) + 1] : -1;
    if (b >= 0 && v_of(b) < v_of(a)) std::swap(a, b);
    const bool ok = b >= 0   ? hi_[a] == v - 1 && lo_[b] == v + 1
                    : a >= 0 ? hi_[a] == v - 1 || lo_[a] == v + 1
                             : true;
    if (!ok)
      return Counterexample{p, u, -1, tree_name(tree) + ": in-order numbering",
                            "subtree ranges of the children do not meet virtual rank " + str(v)};
    lo_[u] = a >= 0 ? std::min(v, lo_[a]) : v;
    hi_[u] = b >= 0 ? hi_[b] : a >= 0 ? std::max(v, hi_[a]) : v;
  }
  return std::nullopt;
}

std::optional<Counterexample> TwoTreeChecker::check_lemma1(const TwoTreeTable& t) {
  const int64_t p = t.p;
  out_colors_.assign(static_cast<size_t>(p), 0);  // bit c: an out-edge of colour c seen
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
      if (out_colors_[s] >> c & 1)
        return Counterexample{p, s, -1, "Lemma 1.2 (out-edges in T1 and T2 differ in colour)",
                              "two out-edges of colour " + str(c) + ", one to " + str(r) + " in " + tree_name(tree)};
      out_colors_[s] |= static_cast<uint8_t>(1 << c);
    }
  }
  return std::nullopt;
}

std::optional<Counterexample> TwoTreeChecker::check_structure(const TwoTreeTable& t) {
  const int64_t p = t.p;
  int64_t root = -1;
  for (int64_t r = 0; r < p; ++r) {
    const bool none1 = t.parent_of(1, r) < 0, none2 = t.parent_of(2, r) < 0;
    if (none1 != none2 || (none1 && root >= 0))
      return Counterexample{p, r, -1, "one broadcast root", "rank without a parent in one tree or a second root"};
    if (none1) root = r;
  }
  if (root < 0) return Counterexample{p, 0, -1, "one broadcast root", "every rank has a parent"};
  for (int tree = 1; tree <= 2; ++tree)
    if (auto c = check_tree(t, tree, root)) return c;
  for (int64_t r = 0; r < p; ++r) {
    if (r == root) continue;
    const bool leaf1 = shape_[0].count[r] == 0, leaf2 = shape_[1].count[r] == 0;
    if (leaf1 == leaf2 && !(p == 2 && leaf1))
      return Counterexample{p, r, -1, "leaves of T1 are interior in T2 and vice versa",
                            std::string(leaf1 ? "leaf" : "interior") + " in both trees"};
  }
  return std::nullopt;
}

std::optional<Counterexample> check_lemma1(const TwoTreeTable& t) { return TwoTreeChecker().check_lemma1(t); }

std::optional<Counterexample> check_two_tree(const TwoTreeTable& t) {
  TwoTreeChecker checker;
  if (auto c = checker.check_structure(t)) return c;
  return checker.check_lemma1(t);
}

// After check_structure: the child counts are those the parents give.
std::optional<Counterexample> TwoTreeChecker::check_children(const TwoTree& tt, const TwoTreeTable& t) const {
  const int64_t p = tt.p();
  for (int tree = 1; tree <= 2; ++tree) {
    const std::vector<int32_t>& count = shape_[tree - 1].count;
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

std::optional<Counterexample> TwoTreeChecker::verify_p(int64_t p, int64_t root, const std::vector<Coloring>& colorings) {
  const TwoTree tt(p, root);
  fill_parents(tt, table_);
  if (auto c = check_structure(table_)) return c;
  if (auto c = check_children(tt, table_)) return c;
  for (Coloring coloring : colorings) {
    fill_colors(tt, coloring, table_, linear_);
    if (auto c = check_lemma1(table_)) {
      c->condition += std::string(" with the ") + coloring_name(coloring) + " colouring";
      return c;
    }
  }
  return std::nullopt;
}

std::optional<Counterexample> verify_two_tree_p(int64_t p, int64_t root, Coloring coloring) {
  return TwoTreeChecker().verify_p(p, root, {coloring});
}

TwoTreeTable read_two_tree_csv(std::istream& in, const std::string& source_name) {
  const auto rows = read_int_csv(in, {"tree,rank,parent,color"}, source_name).rows;
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
