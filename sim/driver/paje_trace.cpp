#include "paje_trace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "bounded_read.hpp"
#include "errors.hpp"

namespace collsim::sim {

namespace {

namespace fs = std::filesystem;

constexpr int64_t kHarnessTag = 32000;  // all_ranks's tag (rank/start_instant.cpp)
constexpr size_t kNone = std::numeric_limits<size_t>::max();

// Calls that start one message: SimGrid traces the call's own link first,
// the request's last.
const std::set<std::string> kSendCalls = {"PMPI_Send",  "PMPI_Ssend",  "PMPI_Bsend",    "PMPI_Rsend",
                                          "PMPI_Isend", "PMPI_Issend", "PMPI_Ibsend",   "PMPI_Irsend",
                                          "PMPI_Sendrecv", "PMPI_Sendrecv_replace"};
// Calls that receive one message: the request's end first, the call's after.
const std::set<std::string> kRecvCalls = {"PMPI_Recv", "PMPI_Sendrecv", "PMPI_Sendrecv_replace"};
// Calls that finish requests: the requests' ends, then as many of the call's.
const std::set<std::string> kWaitCalls = {"PMPI_Wait", "PMPI_Waitall", "PMPI_Waitany", "PMPI_Waitsome"};

struct Link {
  double t = 0;
  int64_t src = 0, dst = 0, tag = 0, size = 0;  // the key's actor ids and tag
};

// One state: an MPI call, a ⊕ (computing) or a sleep.
struct Call {
  std::string name;
  double entry = 0, exit = NAN;
  size_t top = kNone;  // its outermost enclosing call (itself at depth 0)
  double amount = 0;   // Size: a ⊕'s bytes
  std::vector<Link> starts, ends;
};

struct RankTrace {
  std::vector<Call> calls;
  std::vector<size_t> open;  // the stack of calls not yet popped
  // Links outside any state: a request of an MPI_Sendrecv with one side
  // MPI_PROC_NULL (SMPI traces no state for it: the plan executor's
  // one-sided steps), or PMPI_Wait's own end after its state.
  std::vector<Link> loose_starts, loose_ends;
};

// A %EventDef: the event's name and its fields in order.
struct EventDef {
  std::string name;
  std::vector<std::string> fields;
  int field(const std::string& f) const {
    const auto it = std::find(fields.begin(), fields.end(), f);
    return it == fields.end() ? -1 : static_cast<int>(it - fields.begin()) + 1;
  }
};

// A line's words; "quoted words" may hold blanks.
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  for (size_t i = 0; i < line.size();) {
    if (line[i] == ' ' || line[i] == '\t' || line[i] == '\r') {
      ++i;
    } else if (line[i] == '"') {
      const size_t close = line.find('"', i + 1);
      out.push_back(line.substr(i + 1, (close == std::string::npos ? line.size() : close) - i - 1));
      i = close == std::string::npos ? line.size() : close + 1;
    } else {
      const size_t end = line.find_first_of(" \t\r", i);
      out.push_back(line.substr(i, end == std::string::npos ? std::string::npos : end - i));
      i = end == std::string::npos ? line.size() : end;
    }
  }
  return out;
}

// The parsed trace: per rank its calls, and which actor id is which rank.
class PajeReader {
 public:
  explicit PajeReader(int64_t p) : ranks_(static_cast<size_t>(p)) {}

  void line(const std::string& text) {
    if (text.empty() || text[0] == '#') return;
    if (text[0] == '%') return definition(text);
    const std::vector<std::string> w = words(text);
    const auto def = defs_.find(w[0]);
    if (def == defs_.end()) return ++skipped_, void();
    const EventDef& d = def->second;
    auto get = [&](const char* f) -> const std::string* {
      const int i = d.field(f);
      return i > 0 && static_cast<size_t>(i) < w.size() ? &w[static_cast<size_t>(i)] : nullptr;
    };
    if (d.name == "PajeCreateContainer") return container(get("Alias"), get("Name"));
    if (d.name == "PajeDefineEntityValue") {
      if (get("Alias") && get("Name")) values_[*get("Alias")] = *get("Name");
      return;
    }
    if (d.name.rfind("PajeDefine", 0) == 0) return;  // types, which need no reading
    const std::string* time = get("Time");
    if (!time) return ++skipped_, void();
    const double t = std::strtod(time->c_str(), nullptr);
    if (d.name == "PajePushState") return push(get("Container"), get("Value"), get("Size"), t);
    if (d.name == "PajePopState") return pop(get("Container"), t);
    if (d.name == "PajeStartLink") return link(get("StartContainer"), get("Key"), get("Size"), t, true);
    if (d.name == "PajeEndLink") return link(get("EndContainer"), get("Key"), nullptr, t, false);
  }

  std::vector<RankTrace>& ranks() { return ranks_; }
  bool saw_ranks() const { return !rank_of_container_.empty(); }
  int64_t skipped() const { return skipped_; }
  // The rank of actor id `actor`, learned from the links (a start's source
  // and an end's destination are the actor of its container); -1: unknown.
  int64_t rank_of_actor(int64_t actor) const {
    const auto it = rank_of_actor_.find(actor);
    return it == rank_of_actor_.end() ? -1 : it->second;
  }

 private:
  void definition(const std::string& text) {
    const std::vector<std::string> w = words(text.substr(1));
    if (w.size() >= 3 && w[0] == "EventDef") {
      defining_ = w[2];
      defs_[defining_] = {w[1], {}};
    } else if (!w.empty() && w[0] == "EndEventDef") {
      defining_.clear();
    } else if (!w.empty() && !defining_.empty()) {
      defs_[defining_].fields.push_back(w[0]);
    }
  }

  void container(const std::string* alias, const std::string* name) {
    if (!alias || !name || name->rfind("rank-", 0) != 0) return;
    char* end = nullptr;
    const long long r = std::strtoll(name->c_str() + 5, &end, 10);
    if (*end == '\0' && r >= 0 && r < static_cast<long long>(ranks_.size())) rank_of_container_[*alias] = r;
  }

  RankTrace* rank(const std::string* container, int64_t* r = nullptr) {
    if (!container) return nullptr;
    const auto it = rank_of_container_.find(*container);
    if (it == rank_of_container_.end()) return nullptr;
    if (r) *r = it->second;
    return &ranks_[static_cast<size_t>(it->second)];
  }

  void push(const std::string* container, const std::string* value, const std::string* size, double t) {
    RankTrace* rt = rank(container);
    if (!rt || !value) return;
    const auto named = values_.find(*value);
    Call call{named == values_.end() ? *value : named->second, t, NAN, kNone, 0, {}, {}};
    call.top = rt->open.empty() ? rt->calls.size() : rt->calls[rt->open.front()].top;
    if (size) call.amount = std::strtod(size->c_str(), nullptr);
    rt->open.push_back(rt->calls.size());
    rt->calls.push_back(std::move(call));
  }

  void pop(const std::string* container, double t) {
    RankTrace* rt = rank(container);
    if (!rt || rt->open.empty()) return;
    rt->calls[rt->open.back()].exit = t;
    rt->open.pop_back();
  }

  void link(const std::string* container, const std::string* key, const std::string* size, double t, bool start) {
    int64_t r = 0;
    RankTrace* rt = rank(container, &r);
    long long src = 0, dst = 0, tag = 0, n = 0;
    if (!rt || !key || std::sscanf(key->c_str(), "%lld_%lld_%lld_%lld", &src, &dst, &tag, &n) != 4)
      return ++skipped_, void();
    rank_of_actor_[start ? src : dst] = r;
    const Link l{t, src, dst, tag, size ? std::atoll(size->c_str()) : 0};
    if (rt->open.empty()) return (start ? rt->loose_starts : rt->loose_ends).push_back(l);
    Call& call = rt->calls[rt->open.back()];
    (start ? call.starts : call.ends).push_back(l);
  }

  std::vector<RankTrace> ranks_;
  std::map<std::string, EventDef> defs_;
  std::string defining_;
  std::unordered_map<std::string, int64_t> rank_of_container_;
  std::unordered_map<std::string, std::string> values_;  // entity alias -> name
  std::unordered_map<int64_t, int64_t> rank_of_actor_;
  int64_t skipped_ = 0;
};

// The requests' own links of a call, without the call's duplicates.
std::vector<Link> own_starts(const Call& c) {
  if (kSendCalls.count(c.name) && c.starts.size() > 1) return {c.starts.back()};
  return c.starts;
}
std::vector<Link> own_ends(const Call& c) {
  if (kRecvCalls.count(c.name) && c.ends.size() > 1) return {c.ends.front()};
  if (kWaitCalls.count(c.name)) return {c.ends.begin(), c.ends.begin() + static_cast<long>((c.ends.size() + 1) / 2)};
  return c.ends;
}

bool moves_harness_message(const Call& c) {
  for (const auto* links : {&c.starts, &c.ends})
    for (const Link& l : *links)
      if (l.tag == kHarnessTag) return true;
  return false;
}

// The instant the timed call starts: the end of the last sleep (all ranks
// wake then).
double timed_start(const std::vector<RankTrace>& ranks) {
  double start = -1;
  for (const RankTrace& rt : ranks)
    for (const Call& c : rt.calls)
      if (c.name == "sleeping" && std::isfinite(c.exit)) start = std::max(start, c.exit);
  if (start < 0)
    throw std::runtime_error("the Paje trace shows no sleep before the timed call (not a trace of collsim's harness, "
                             "or SimGrid wrote no 'sleeping' states)");
  return start;
}

// A link with the call it lies in (null: none) and the rank's operation
// count at it.
struct Placed {
  Link link;
  const Call* call;
  int64_t step;
};

// One rank's part of the timed call, in trace times: from `start` to the
// entry of its first call that moves a harness message (its `finish`).
struct RankPart {
  double finish = 0;
  std::vector<const Call*> combines;
  std::vector<Placed> sends, arrivals;
  std::vector<double> activity;  // when each operation began, sorted: sends' posts, calls' entries, the finish
  // When the rank went on after `t`: its first activity from `t` on (after
  // `t` where `after`).
  double next_activity(double t, bool after) const {
    const auto it = after ? std::upper_bound(activity.begin(), activity.end(), t + 1e-12)
                          : std::lower_bound(activity.begin(), activity.end(), t - 1e-12);
    return it == activity.end() ? finish : *it;
  }
};

RankPart rank_part(const RankTrace& rt, double start) {
  RankPart part;
  part.finish = start;
  std::vector<bool> harness(rt.calls.size(), false);
  for (size_t i = 0; i < rt.calls.size(); ++i)
    if (moves_harness_message(rt.calls[i])) harness[rt.calls[i].top] = true;
  size_t end = rt.calls.size();
  for (size_t i = 0; i < rt.calls.size(); ++i) {
    const Call& c = rt.calls[i];
    part.finish = std::max(part.finish, std::isfinite(c.exit) ? c.exit : c.entry);
    if (c.top == i && c.entry >= start - 1e-12 && harness[i]) {
      end = i, part.finish = c.entry;
      break;
    }
  }
  // The operations in time order: a call, or a link outside any.
  struct Op {
    double t;
    const Call* call;
    const Link* link;
    bool start;
  };
  std::vector<Op> ops;
  for (size_t i = 0; i < end; ++i)
    if (rt.calls[i].entry >= start - 1e-12 && rt.calls[i].name != "sleeping") ops.push_back({rt.calls[i].entry, &rt.calls[i], nullptr, false});
  for (const auto* links : {&rt.loose_starts, &rt.loose_ends})
    for (const Link& l : *links)
      if (l.t >= start - 1e-12 && l.t <= part.finish + 1e-12 && l.tag != kHarnessTag)
        ops.push_back({l.t, nullptr, &l, links == &rt.loose_starts});
  std::stable_sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) { return a.t < b.t; });
  int64_t step = -1;
  for (const Op& op : ops) {
    const bool combine = op.call && op.call->name == "computing";
    if (!combine && (!op.call || op.call->top == static_cast<size_t>(op.call - rt.calls.data()))) ++step;
    if (!op.link || op.start) part.activity.push_back(op.t);
    if (combine) part.combines.push_back(op.call);
    if (op.link) (op.start ? part.sends : part.arrivals).push_back({*op.link, nullptr, step});
    if (!op.call) continue;
    for (const Link& l : own_starts(*op.call))
      if (l.tag != kHarnessTag) part.sends.push_back({l, op.call, step});
    for (const Link& l : own_ends(*op.call))
      if (l.tag != kHarnessTag) part.arrivals.push_back({l, op.call, step});
  }
  part.activity.push_back(part.finish);
  std::sort(part.activity.begin(), part.activity.end());
  return part;
}

struct Pairing {
  std::map<std::tuple<int64_t, int64_t, int64_t>, std::vector<std::pair<int64_t, Placed>>> sends, arrivals;
};

// A message from its send and its arrival. When each side was free of it:
// a call of its own ends then (or, for a send, its arrival if earlier);
// without a state (a one-sided MPI_Sendrecv) the rank's next operation
// began then; inside a collective the trace tells only the arrival.
TimelineEvent message(const Placed& s, const Placed& a, int64_t src, int64_t dst, const std::vector<RankPart>& parts,
                      double start, bool eager) {
  auto us = [start](double t) { return (t - start) * 1e6; };
  TimelineEvent e;
  e.rank = src, e.peer = dst, e.bytes = s.link.size, e.step = s.step;
  e.post = us(s.link.t);
  e.end = us(a.link.t);
  const bool send_call = s.call && kSendCalls.count(s.call->name);
  const bool recv_call = a.call && (kRecvCalls.count(a.call->name) || kWaitCalls.count(a.call->name));
  e.sender_done = send_call  ? std::min(e.end, us(s.call->exit))
                  : !s.call ? std::min(e.end, us(parts[static_cast<size_t>(src)].next_activity(s.link.t, true)))
                            : e.end;
  e.receiver_done = recv_call ? std::max(e.end, us(a.call->exit))
                    : !a.call ? std::max(e.end, us(parts[static_cast<size_t>(dst)].next_activity(a.link.t, false)))
                              : e.end;
  e.start = eager || !recv_call ? e.post : std::max(e.post, us(a.call->entry));
  return e;
}

// Every message: the k-th send from a to b with tag t and the k-th arrival.
void pair_messages(const Pairing& pairing, const std::vector<RankPart>& parts, double start, bool eager, Timeline& t,
                   std::vector<std::string>& notes) {
  int64_t unpaired = 0;
  for (const auto& [key, sends] : pairing.sends) {
    const auto found = pairing.arrivals.find(key);
    const size_t arrived = found == pairing.arrivals.end() ? 0 : found->second.size();
    unpaired += static_cast<int64_t>(std::max(sends.size(), arrived) - std::min(sends.size(), arrived));
    for (size_t k = 0; k < std::min(sends.size(), arrived); ++k)
      t.events.push_back(
          message(sends[k].second, found->second[k].second, sends[k].first, found->second[k].first, parts, start, eager));
  }
  for (const auto& [key, arrivals] : pairing.arrivals)
    if (!pairing.sends.count(key)) unpaired += static_cast<int64_t>(arrivals.size());
  if (unpaired > 0)
    notes.push_back(std::to_string(unpaired) +
                    " message ends in SimGrid's trace had no partner (a send without an arrival or the other way) "
                    "and are left out");
}

}  // namespace

Timeline read_paje_timeline(const fs::path& path, int64_t p, bool eager, std::vector<std::string>& notes) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) throw std::runtime_error("SimGrid wrote no Paje trace '" + path.string() + "': " + ec.message());
  if (size > static_cast<uintmax_t>(kMaxPajeBytes))
    throw LimitError("SimGrid's Paje trace of this run is over " + limit_text(kMaxPajeBytes) +
                     "; trace fewer ranks, a smaller size or fewer blocks");
  PajeReader reader(p);
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) reader.line(line);
  if (!reader.saw_ranks()) throw std::runtime_error("the Paje trace '" + path.string() + "' names no rank-N container");
  if (reader.skipped() > 0)
    notes.push_back(std::to_string(reader.skipped()) + " lines of SimGrid's trace were not understood and skipped");
  const double start = timed_start(reader.ranks());
  std::vector<RankPart> parts;
  for (const RankTrace& rt : reader.ranks()) parts.push_back(rank_part(rt, start));
  Timeline t;
  t.p = p;
  Pairing pairing;
  int64_t unknown = 0;
  for (int64_t r = 0; r < p; ++r) {
    const RankPart& part = parts[static_cast<size_t>(r)];
    t.finish.push_back((part.finish - start) * 1e6);
    for (const Call* c : part.combines) {
      TimelineEvent e;
      e.kind = TimelineEvent::Kind::combine;
      e.rank = r, e.bytes = std::llround(c->amount);
      e.post = e.start = (c->entry - start) * 1e6;
      e.end = e.sender_done = e.receiver_done = ((std::isfinite(c->exit) ? c->exit : c->entry) - start) * 1e6;
      t.events.push_back(e);
    }
    for (const Placed& s : part.sends) {
      const int64_t dst = reader.rank_of_actor(s.link.dst);
      if (dst < 0) ++unknown; else pairing.sends[{r, dst, s.link.tag}].push_back({r, s});
    }
    for (const Placed& a : part.arrivals) {
      const int64_t src = reader.rank_of_actor(a.link.src);
      if (src < 0) ++unknown; else pairing.arrivals[{src, r, a.link.tag}].push_back({r, a});
    }
  }
  if (unknown > 0) notes.push_back(std::to_string(unknown) + " links of SimGrid's trace name an unknown actor");
  pair_messages(pairing, parts, start, eager, t, notes);
  return t;
}

}  // namespace collsim::sim
