#include <cmath>
#include <sstream>

#include "viz.hpp"

namespace collsim::viz {

namespace {

// One colour per skip index k (q <= 9 for the drawn p <= 512).
constexpr const char* kSkipColor[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

}  // namespace

// Rank r sits at angle 90° - 360° r / p (clockwise from the top, root 0 at
// the top); radius grows with p so neighbouring circles do not touch.
std::string circulant_dot(const CirculantSchedule& s, std::optional<int64_t> rank) {
  const int64_t p = s.p();
  const int q = s.q();
  const double radius = std::max(120.0, 40.0 * double(p) / (2 * M_PI));
  std::ostringstream os;
  os << "digraph circulant {\n  splines=line;\n"
     << "  label=\"circulant graph, p=" << p << ", q=" << q << " skips"
     << (rank ? ", receive schedule of rank " + std::to_string(*rank) + " in bold" : std::string()) << "\";\n"
     << "  node [shape=circle, fontsize=11, width=0.35, fixedsize=true];\n";
  for (int64_t r = 0; r < p; ++r) {
    const double a = M_PI / 2 - 2 * M_PI * double(r) / double(p);
    os << "  r" << r << " [label=\"" << r << "\", pos=\"" << radius * std::cos(a) << "," << radius * std::sin(a)
       << "!\"" << (r == 0 ? ", shape=doublecircle, style=filled, fillcolor=gold" : "")
       << (rank && r == *rank ? ", style=filled, fillcolor=lightblue, penwidth=2" : "") << "];\n";
  }
  // Legend: skip index k, skip value, colour; with a rank, what arrives in
  // which round from whom.
  int recvblock[kMaxRounds] = {};
  if (rank) s.recv(*rank, recvblock);
  os << "  legend [shape=plaintext, fixedsize=false, pos=\"" << radius + 150 << ",0!\", label=<<table border=\"0\">";
  for (int k = 0; k < q; ++k) {
    os << "<tr><td align=\"left\"><font color=\"" << kSkipColor[k] << "\">k=" << k << ": skip " << s.skip(k);
    if (rank)
      os << "; round " << k << ": from " << s.from(*rank, k) << ", block "
         << (*rank == 0 ? std::string("none (root)") : std::to_string(recvblock[k]));
    os << "</font></td></tr>";
  }
  os << "</table>>];\n";
  for (int k = 0; k < q; ++k)
    for (int64_t r = 0; r < p; ++r) {
      const int64_t to = s.to(r, k);
      const bool mine = rank && to == *rank;
      os << "  r" << r << " -> r" << to << " [color=\"" << kSkipColor[k] << (rank && !mine ? "40" : "")
         << "\", penwidth=" << (mine ? 3 : 1) << ", arrowsize=" << (mine ? 0.9 : 0.5) << "];\n";
    }
  os << "}\n";
  return os.str();
}

}  // namespace collsim::viz
