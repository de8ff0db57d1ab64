#include "timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "output.hpp"

namespace collsim::sim {

namespace {

// The Paje trace's times are whole picoseconds: events that touch may be
// apart by that much after the subtraction of the start.
constexpr double kSlackUs = 2e-6;

struct Release {
  double t;
  size_t event;
};

// Per rank, when each of its events lets it go on, in time order.
std::vector<std::vector<Release>> releases_by_rank(const Timeline& t) {
  std::vector<std::vector<Release>> by(static_cast<size_t>(t.p));
  for (size_t i = 0; i < t.events.size(); ++i) {
    const TimelineEvent& e = t.events[i];
    for (int64_t r : {e.rank, e.peer})
      if (r >= 0) by[static_cast<size_t>(r)].push_back({e.release(r), i});
  }
  for (auto& list : by)
    std::stable_sort(list.begin(), list.end(), [](const Release& a, const Release& b) { return a.t < b.t; });
  return by;
}

// Rank r's event released last no later than `t`, not yet on the chain.
const Release* latest_before(const std::vector<Release>& list, double t, const std::vector<bool>& on_chain) {
  auto it = std::upper_bound(list.begin(), list.end(), t, [](double x, const Release& r) { return x < r.t; });
  while (it != list.begin()) {
    --it;
    if (!on_chain[it->event]) return &*it;
  }
  return nullptr;
}

std::string us(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.6f", v);
  return text;
}

// Per rank, the union of the spans in which it sends, receives or combines.
std::vector<std::vector<std::pair<double, double>>> busy_spans(const Timeline& t) {
  std::vector<std::vector<std::pair<double, double>>> spans(static_cast<size_t>(t.p));
  for (const TimelineEvent& e : t.events) {
    for (int64_t r : {e.rank, e.peer})
      if (r >= 0) spans[static_cast<size_t>(r)].push_back({e.start, e.release(r)});
  }
  for (auto& s : spans) {
    std::sort(s.begin(), s.end());
    std::vector<std::pair<double, double>> merged;
    for (const auto& [a, b] : s) {
      if (!merged.empty() && a <= merged.back().second)
        merged.back().second = std::max(merged.back().second, b);
      else
        merged.push_back({a, b});
    }
    s = merged;
  }
  return spans;
}

// One boxxyerror line: x y xlow xhigh ylow yhigh.
void box(std::ostringstream& out, double x0, double x1, double y0, double y1) {
  out << (x0 + x1) / 2 << ' ' << (y0 + y1) / 2 << ' ' << x0 << ' ' << x1 << ' ' << y0 << ' ' << y1 << '\n';
}

// The critical path as vectors (x y dx dy): `arrows` the messages it
// follows from sender to receiver (start to arrival), `spans` where it
// stays on a rank (a ⊕; a receive's overhead; a send whose sender the
// chain goes on from, up to when the sender was free). `row` maps a rank to
// its place on the y axis.
void path_vectors(const Timeline& t, const CriticalPath& path, std::string& arrows, std::string& spans) {
  std::ostringstream a, s;
  a.precision(12), s.precision(12);
  for (size_t k = 0; k < path.events.size(); ++k) {
    const TimelineEvent& e = t.events[path.events[k]];
    const int64_t via = path.via[k];
    const double from = e.kind == TimelineEvent::Kind::message && via == e.peer ? e.end : e.start;
    if (from > e.start) a << e.start << ' ' << e.rank << ' ' << e.end - e.start << ' ' << e.peer - e.rank << '\n';
    if (e.release(via) > from) s << from << ' ' << via << ' ' << e.release(via) - from << " 0\n";
  }
  arrows = a.str(), spans = s.str();
}

// The plot commands of the critical path over the picture (its data added
// to `blocks`), in `colour`.
std::string path_plots(const Timeline& t, const CriticalPath& path, const std::string& colour,
                       std::vector<std::string>& blocks) {
  std::string arrows, spans, plots;
  path_vectors(t, path, arrows, spans);
  const std::pair<std::string, std::string> series[] = {
      {arrows, " with vectors head filled size screen 0.008,20 lw 2.5 lc rgb '" + colour + "' title 'critical path'"},
      {spans, " with vectors nohead lw 5 lc rgb '" + colour + "' notitle"}};
  for (const auto& [data, style] : series) {
    if (data.empty()) continue;
    plots += ", 'timeline.dat' index " + std::to_string(blocks.size()) + style;
    blocks.push_back(data);
  }
  return plots;
}

const char* const kTerminal = "set terminal pngcairo size 1400,820 font ',11' noenhanced\n";

// Up to kGanttMaxRanks ranks: a bar per rank, sends in its upper half,
// receives in its lower half, ⊕ across, idle time grey behind them.
std::string gantt_script(const Timeline& t, const CriticalPath& path, std::vector<std::string>& blocks) {
  std::ostringstream idle, sends, recvs, combines;
  for (std::ostringstream* s : {&idle, &sends, &recvs, &combines}) s->precision(12);
  const auto spans = busy_spans(t);
  for (int64_t r = 0; r < t.p; ++r) {
    double at = 0;
    for (const auto& [a, b] : spans[static_cast<size_t>(r)]) {
      if (a > at) box(idle, at, a, r - 0.4, r + 0.4);
      at = std::max(at, b);
    }
    if (t.finish[static_cast<size_t>(r)] > at) box(idle, at, t.finish[static_cast<size_t>(r)], r - 0.4, r + 0.4);
  }
  for (const TimelineEvent& e : t.events) {
    if (e.kind == TimelineEvent::Kind::combine) {
      box(combines, e.start, e.end, e.rank - 0.4, e.rank + 0.4);
      continue;
    }
    box(sends, e.start, e.sender_done, e.rank - 0.4, e.rank);
    box(recvs, e.start, e.receiver_done, e.peer, e.peer + 0.4);
  }
  struct Series {
    std::string data, style;
  };
  const Series series[] = {
      {idle.str(), "with boxxyerror fs solid 1.0 noborder lc rgb '#d9d9d9' title 'idle'"},
      {sends.str(), "with boxxyerror fs solid 0.85 noborder lc rgb '#2c7fb8' title 'send'"},
      {recvs.str(), "with boxxyerror fs solid 0.85 noborder lc rgb '#41ab5d' title 'receive'"},
      {combines.str(), "with boxxyerror fs solid 1.0 noborder lc rgb '#e6550d' title '⊕ (combine)'"}};
  std::string plot;
  for (const Series& s : series) {
    if (s.data.empty()) continue;
    plot += (plot.empty() ? "plot " : ", ") + std::string("'timeline.dat' index ") + std::to_string(blocks.size()) +
            " " + s.style;
    blocks.push_back(s.data);
  }
  const int64_t every = t.p <= 32 ? 1 : t.p <= 64 ? 4 : 8;
  plot += path_plots(t, path, "black", blocks);
  return "set ylabel 'rank'\nset yrange [" + std::to_string(t.p) + " - 0.4:-0.6]\nset ytics " +
         std::to_string(every) + "\nset mytics 1\n" + plot + "\n";
}

// More ranks: bins of ranks by columns of time, shaded by the share of the
// bin's rank-time spent sending, receiving or combining.
std::string heat_script(const Timeline& t, const CriticalPath& path, std::vector<std::string>& blocks) {
  const int64_t per_bin = (t.p + kGanttMaxRanks - 1) / kGanttMaxRanks, bins = (t.p + per_bin - 1) / per_bin;
  constexpr int kColumns = 400;
  const double total = std::max(t.time_us(), 1e-9), width = total / kColumns;
  std::vector<double> busy(static_cast<size_t>(bins * kColumns), 0);
  const auto spans = busy_spans(t);
  for (int64_t r = 0; r < t.p; ++r) {
    for (const auto& [a, b] : spans[static_cast<size_t>(r)]) {
      for (int c = std::max(0, static_cast<int>(a / width)); c < kColumns && c * width < b; ++c) {
        const double overlap = std::min(b, (c + 1) * width) - std::max(a, c * width);
        if (overlap > 0) busy[static_cast<size_t>(r / per_bin * kColumns + c)] += overlap;
      }
    }
  }
  std::ostringstream cells;
  cells.precision(12);
  for (int64_t b = 0; b < bins; ++b) {
    const int64_t ranks = std::min(per_bin, t.p - b * per_bin);
    for (int c = 0; c < kColumns; ++c)
      cells << (c + 0.5) * width << ' ' << b * per_bin + (per_bin - 1) / 2.0 << ' ' << busy[static_cast<size_t>(b * kColumns + c)] / (ranks * width)
            << '\n';
    cells << '\n';
  }
  const std::string heat = "'timeline.dat' index " + std::to_string(blocks.size()) + " using 1:2:3 with image notitle";
  blocks.push_back(cells.str());
  const std::string overlay = path_plots(t, path, "#e6550d", blocks);
  return "set ylabel 'rank (in bins of " + std::to_string(per_bin) + ")'\nset yrange [" +
         std::to_string(bins * per_bin) + " - 0.5:-0.5]\nset cbrange [0:1]\nset cblabel 'busy share of the bin "
         "(sending, receiving or combining; 0: idle or done)'\nset palette defined (0 '#ffffff', 0.5 '#6baed6', 1 "
         "'#08306b')\nplot " + heat + overlay + "\n";
}

}  // namespace

double Timeline::time_us() const { return finish.empty() ? 0 : *std::max_element(finish.begin(), finish.end()); }

CriticalPath critical_path(const Timeline& t) {
  CriticalPath path;
  if (t.events.empty()) return path;
  const auto by = releases_by_rank(t);
  const Release* last = nullptr;
  int64_t via = 0;  // the rank the chain goes on from
  for (int64_t r = 0; r < t.p; ++r) {
    const auto& list = by[static_cast<size_t>(r)];
    if (!list.empty() && (!last || list.back().t > last->t)) last = &list.back(), via = r;
  }
  std::vector<bool> on_chain(t.events.size(), false);
  for (size_t cur = last->event;;) {
    on_chain[cur] = true;
    path.events.push_back(cur);
    path.via.push_back(via);
    const TimelineEvent& e = t.events[cur];
    path.length_us += e.release(via) - e.start;
    const Release* pred = nullptr;
    for (int64_t r : {e.rank, e.peer}) {
      if (r < 0) continue;
      const Release* x = latest_before(by[static_cast<size_t>(r)], e.start + kSlackUs, on_chain);
      if (x && (!pred || x->t > pred->t)) pred = x, via = r;
    }
    if (!pred) {
      path.gaps_us += e.start;
      break;
    }
    path.gaps_us += std::max(0.0, e.start - pred->t);
    cur = pred->event;
  }
  std::reverse(path.events.begin(), path.events.end());
  std::reverse(path.via.begin(), path.via.end());
  return path;
}

const char* const kTimelineCsvHeader =
    "kind,rank,peer,bytes,step,post_us,start_us,end_us,sender_done_us,receiver_done_us,on_critical_path";

std::string timeline_csv(const Timeline& t, const CriticalPath& path) {
  std::vector<size_t> order(t.events.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const TimelineEvent &x = t.events[a], &y = t.events[b];
    return x.start != y.start ? x.start < y.start : x.rank < y.rank;
  });
  std::vector<bool> critical(t.events.size(), false);
  for (size_t i : path.events) critical[i] = true;
  std::string csv = std::string(kTimelineCsvHeader) + "\n";
  for (size_t i : order) {
    const TimelineEvent& e = t.events[i];
    const bool message = e.kind == TimelineEvent::Kind::message;
    csv += std::string(message ? "send" : "combine") + "," + std::to_string(e.rank) + "," +
           (message ? std::to_string(e.peer) : "") + "," + std::to_string(e.bytes) + "," + std::to_string(e.step) +
           "," + us(e.post) + "," + us(e.start) + "," + us(e.end) + "," + (message ? us(e.sender_done) : "") + "," +
           (message ? us(e.receiver_done) : "") + "," + (critical[i] ? "1" : "0") + "\n";
  }
  return csv;
}

void plot_timeline(const std::filesystem::path& dir, const Timeline& t, const CriticalPath& path,
                   const std::string& title) {
  std::vector<std::string> blocks;
  const std::string body = t.p <= kGanttMaxRanks ? gantt_script(t, path, blocks) : heat_script(t, path, blocks);
  std::string data;
  for (const std::string& b : blocks) data += b + "\n\n";
  write_file(dir / "timeline.dat", data);
  const std::string script = std::string(kTerminal) + "set output 'timeline.png'\nset title " + gnuplot_quote(title) +
                             "\nset xlabel 'time since the collective started (us)'\nset xrange [0:" +
                             us(std::max(t.time_us(), 1e-6) * 1.01) +
                             "]\nset key outside below horizontal\nset grid xtics\n" + body;
  write_file(dir / "timeline.gp", script);
  run_gnuplot(dir, "timeline.gp");
}

}  // namespace collsim::sim
