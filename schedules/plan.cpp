#include "plan.hpp"

#include <algorithm>
#include <charconv>
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "bounded_stream.hpp"

namespace collsim::plan {

namespace {

constexpr int64_t kMaxRanks = (int64_t{1} << 31) - 1;
constexpr int64_t kMaxStepBlocks = int64_t{1} << 24;

int64_t number(const std::string& word, int64_t lo, int64_t hi, const std::string& what) {
  int64_t v = 0;
  const char* end = word.data() + word.size();
  const auto [ptr, ec] = std::from_chars(word.data(), end, v);
  if (word.empty() || ec != std::errc() || ptr != end)
    throw std::invalid_argument(what + " '" + word + "' is not an integer");
  if (v < lo || v > hi)
    throw std::invalid_argument(what + " " + word + " is out of range [" + std::to_string(lo) + ", " +
                                std::to_string(hi) + "]");
  return v;
}

BlockList parse_blocks(const std::string& text, int64_t nblocks) {
  BlockList blocks;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    // from_chars would read "-1" as a range with no first block.
    if (!item.empty() && item[0] == '-')
      throw std::invalid_argument("block '" + item + "' is negative: blocks count from 0");
    const size_t dash = item.find('-');
    if (dash != std::string::npos && dash + 1 == item.size())
      throw std::invalid_argument("block range '" + item + "' lacks its last block");
    const int64_t a = number(item.substr(0, dash), 0, nblocks - 1, "block");
    const int64_t b = dash == std::string::npos ? a : number(item.substr(dash + 1), a, nblocks - 1, "block");
    // Consumers walk a step's blocks one by one: bounded so that one line
    // cannot ask for hours of work.
    if (b - a >= kMaxStepBlocks - blocks.size()) throw std::invalid_argument("a step lists more than 2^24 blocks");
    blocks.push_run(a, b - a + 1);
  }
  if (blocks.empty() || text.back() == ',') throw std::invalid_argument("empty block list '" + text + "'");
  return blocks;
}

template <class Enum, size_t N>
Enum parse_word(const std::string& word, const Enum (&values)[N], const char* (*name)(Enum), const char* what) {
  for (Enum v : values)
    if (word == name(v)) return v;
  throw std::invalid_argument(std::string("unknown ") + what + " '" + word + "'");
}

// `after 0,3`: step indices below `k`, the step's own.
std::vector<int64_t> parse_after(const std::string& text, int64_t k) {
  if (k == 0) throw std::invalid_argument("the first step of a rank requires nothing");
  std::vector<int64_t> after;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');)
    after.push_back(number(item, 0, k - 1, "required step"));
  if (text.back() == ',') throw std::invalid_argument("empty step in 'after " + text + "'");
  return after;
}

// One `step ...` line after the word `step`: step k of its rank.
Step parse_step(std::istringstream& words, const Header& h, int64_t k) {
  Step s;
  std::string word;
  bool send = false, recv = false;
  auto next = [&](const char* what) {
    if (!(words >> word)) throw std::invalid_argument(std::string("missing ") + what);
    return word;
  };
  while (words >> word) {
    if (word == "after") {
      if (!h.graph) throw std::invalid_argument("'after' needs a graph plan ('order graph', collsim-plan 2)");
      s.after = parse_after(next("required steps"), k);
      if (words >> word) throw std::invalid_argument("nothing may follow 'after', not '" + word + "'");
      break;
    }
    if ((word == "fold" || word == "join") && !send && !recv && s.fold_blocks.empty()) {
      s.join = word == "join";
      s.fold_blocks = parse_blocks(next("block list"), h.blocks);
    } else if (!s.fold_blocks.empty()) {
      throw std::invalid_argument(std::string("a ") + (s.join ? "join" : "fold") +
                                  " step has nothing but 'after' after its blocks, not '" + word + "'");
    } else if (word == "send" && !send) {
      send = true;
      s.send_to = number(next("peer"), 0, h.p - 1, "peer");
      if (next("'blocks'") != "blocks") throw std::invalid_argument("expected 'blocks' after the peer");
      s.send_blocks = parse_blocks(next("block list"), h.blocks);
    } else if (word == "recv" && !recv) {
      recv = true;
      s.recv_from = number(next("peer"), 0, h.p - 1, "peer");
      if (next("'blocks'") != "blocks") throw std::invalid_argument("expected 'blocks' after the peer");
      s.recv_blocks = parse_blocks(next("block list"), h.blocks);
    } else if (word == "value" && send) {
      static constexpr Value all[] = {Value::acc, Value::input,      Value::acc_op_input,
                                      Value::aux, Value::acc_op_aux, Value::acc_op_input_op_aux};
      s.send_value = parse_word(next("value"), all, value_name, "value");
    } else if (word == "combine" && recv) {
      static constexpr Combine all[] = {Combine::store, Combine::left, Combine::right, Combine::aux};
      s.combine = parse_word(next("combine"), all, combine_name, "combine");
    } else {
      throw std::invalid_argument("unexpected word '" + word + "' in a step");
    }
  }
  if (!send && !recv && s.fold_blocks.empty())
    throw std::invalid_argument("a step needs a send, a receive, a fold or a join");
  return s;
}

// `empty-messages send|skip`.
bool empty_messages(const std::string& value) {
  if (value != "send" && value != "skip")
    throw std::invalid_argument("empty-messages must be send or skip, not '" + value + "'");
  return value == "skip";
}

// `order lock-step|graph` (version 2).
bool graph_order(const std::string& value, int version) {
  if (version < 2) throw std::invalid_argument("'order' needs 'collsim-plan 2'");
  if (value != "lock-step" && value != "graph")
    throw std::invalid_argument("order must be lock-step or graph, not '" + value + "'");
  return value == "graph";
}

// The header's key-value lines, in any order, each once, before the first rank.
void parse_header_line(const std::string& key, std::istringstream& words, Header& h, std::map<std::string, bool>& seen,
                       int version) {
  std::string value;
  if (!(words >> value)) throw std::invalid_argument("missing value of '" + key + "'");
  if (seen[key]) throw std::invalid_argument("'" + key + "' given twice");
  seen[key] = true;
  if (key == "collective") h.collective = parse_collective(value);
  else if (key == "p") h.p = number(value, 1, kMaxRanks, "p");
  else if (key == "root") h.root = number(value, 0, kMaxRanks - 1, "root");
  else if (key == "blocks") h.blocks = number(value, 1, kMaxBlocks, "blocks");
  else if (key == "commutative") h.commutative = number(value, 0, 1, "commutative") == 1;
  else if (key == "segments") h.segments = number(value, 1, kMaxBlocks, "segments");
  else if (key == "empty-messages") h.skip_empty = empty_messages(value);
  else if (key == "order") h.graph = graph_order(value, version);
  else throw std::invalid_argument("unknown word '" + key + "'");
}

void check_header(const Header& h, const std::map<std::string, bool>& seen) {
  for (const char* key : {"collective", "p", "blocks"})
    if (!seen.count(key)) throw std::invalid_argument(std::string("the header lacks '") + key + "'");
  if (h.root >= h.p) throw std::invalid_argument("root " + std::to_string(h.root) + " is not a rank of p = " + std::to_string(h.p));
  if (per_segment(h.collective) && h.blocks % h.p != 0)
    throw std::invalid_argument(std::string(collective_name(h.collective)) + ": blocks must be a multiple of p");
  if (per_segment(h.collective) && h.segments != 1)
    throw std::invalid_argument(std::string(collective_name(h.collective)) +
                                " is cut by the ranks' counts: segments must be 1");
  if (h.segments > h.blocks || h.blocks % h.segments != 0)
    throw std::invalid_argument("blocks " + std::to_string(h.blocks) + " is not a multiple of segments " +
                                std::to_string(h.segments));
}

}  // namespace

BlockList::BlockList(const std::vector<int64_t>& blocks) {
  for (int64_t b : blocks) push_back(b);
}

void BlockList::spill(Run run) {
  if (spilled_.empty()) spilled_.push_back(inline_);
  spilled_.push_back(run);
}

bool increasing(const BlockList& list) {
  const BlockList::Runs runs = list.runs();
  for (size_t i = 1; i < runs.size(); ++i)
    if (runs[i].first <= runs[i - 1].last()) return false;
  return true;
}

void sort_blocks(BlockList& list) {
  if (increasing(list)) return;
  std::vector<int64_t> blocks(list.begin(), list.end());
  std::sort(blocks.begin(), blocks.end());
  list = BlockList(blocks);
}

// Block by block: one list may hold as a strided run what the other holds
// as single blocks (a plan file lists strided runs block by block).
bool operator==(const BlockList& x, const BlockList& y) {
  return x.size_ == y.size_ && std::equal(x.begin(), x.end(), y.begin());
}

std::string to_string(const BlockList& blocks) {
  std::string text;
  auto add = [&text](int64_t first, int64_t last) {
    text += (text.empty() ? "" : ",") + std::to_string(first);
    if (last > first) text += "-" + std::to_string(last);
  };
  for (const BlockList::Run& run : blocks.runs()) {
    if (run.stride == 1)
      add(run.first, run.last());
    else
      for (int64_t b = run.first; b <= run.last(); b += run.stride) add(b, b);
  }
  return text;
}

std::ostream& operator<<(std::ostream& out, const BlockList& blocks) { return out << "{" << to_string(blocks) << "}"; }

StepSource Plan::source(int64_t rank) const {
  if (stream) return stream(rank);
  return [all = steps(rank), i = size_t{0}](Step& next) mutable {
    if (i == all.size()) return false;
    next = std::move(all[i++]);
    return true;
  };
}

Plan streamed(Header h, std::function<StepSource(int64_t rank)> stream) {
  auto collect = [stream](int64_t rank) {
    std::vector<Step> all;
    const StepSource next = stream(rank);
    for (Step s; next(s);) all.push_back(std::move(s));
    return all;
  };
  return {h, collect, std::move(stream)};
}

Plan rotated(Plan base, int64_t root) {
  const int64_t p = base.header.p;
  Header h = base.header;
  h.root = root;
  h.commutative = true;
  return streamed(h, [base = std::move(base), root, p](int64_t rank) -> StepSource {
    const auto real = [p, root](int64_t v) { return v < 0 ? v : (v + root) % p; };
    return [next = base.source((rank - root + p) % p), real](Step& s) {
      if (!next(s)) return false;
      s.send_to = real(s.send_to), s.recv_from = real(s.recv_from);
      return true;
    };
  });
}

bool per_segment(Collective c) { return c == Collective::allgatherv || c == Collective::reduce_scatter; }

int64_t segment_blocks(const Header& h) { return per_segment(h.collective) ? h.blocks / h.p : h.blocks; }

int64_t block_owner(const Header& h, int64_t block) { return per_segment(h.collective) ? block / segment_blocks(h) : h.root; }

sim::Span block_units(const Header& h, int64_t count, int64_t block) {
  const int64_t per = h.blocks / h.segments;
  const sim::Span seg = sim::block_span(count, h.segments, block / per);
  const sim::Span part = sim::block_span(seg.end - seg.begin, per, block % per);
  return {seg.begin + part.begin, seg.begin + part.end};
}

const char* value_name(Value v) {
  static const char* const names[] = {"acc", "input", "acc+input", "aux", "acc+aux", "acc+input+aux"};
  return names[static_cast<int>(v)];
}

const char* combine_name(Combine c) {
  static const char* const names[] = {"store", "left", "right", "aux"};
  return names[static_cast<int>(c)];
}

void write_plan(std::ostream& out, const Plan& plan) {
  const Header& h = plan.header;
  out << "collsim-plan " << (h.graph ? 2 : 1) << "\ncollective " << collective_name(h.collective) << "\np " << h.p << "\nroot " << h.root
      << "\nblocks " << h.blocks << "\ncommutative " << (h.commutative ? 1 : 0) << "\n";
  if (h.segments != 1) out << "segments " << h.segments << "\n";
  if (h.skip_empty) out << "empty-messages skip\n";
  if (h.graph) out << "order graph\n";
  // One step at a time (Plan::source): a pipelined rank's 2^40 steps never
  // exist in memory at once.
  for (int64_t r = 0; r < h.p && out; ++r) {
    const StepSource next = plan.source(r);
    Step s;
    if (!next(s)) continue;
    out << "rank " << r << "\n";
    do {
      out << "step";
      if (!s.fold_blocks.empty()) out << (s.join ? " join " : " fold ") << to_string(s.fold_blocks);
      if (s.send_to >= 0) {
        out << " send " << s.send_to << " blocks " << to_string(s.send_blocks);
        if (s.send_value != Value::acc) out << " value " << value_name(s.send_value);
      }
      if (s.recv_from >= 0) {
        out << " recv " << s.recv_from << " blocks " << to_string(s.recv_blocks);
        if (s.combine != Combine::store) out << " combine " << combine_name(s.combine);
      }
      for (size_t i = 0; i < s.after.size(); ++i) out << (i == 0 ? " after " : ",") << s.after[i];
      out << "\n";
    } while (out && next(s));  // an output that failed (a full disk) ends the walk
  }
}

Plan read_plan(std::istream& in) {
  Header h;
  std::map<std::string, bool> seen;
  auto ranks = std::make_shared<std::map<int64_t, std::vector<Step>>>();
  std::vector<Step>* current = nullptr;
  int version = 0;
  int64_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    try {
      const size_t hash = line.find('#');
      std::istringstream words(line.substr(0, hash));
      std::string key;
      if (!(words >> key)) continue;
      if (version == 0) {
        std::string word;
        if (key != "collsim-plan" || !(words >> word) || (word != "1" && word != "2"))
          throw std::invalid_argument("a plan file starts with 'collsim-plan 1' (or 2)");
        version = word == "1" ? 1 : 2;
      } else if (key == "rank") {
        if (!current) check_header(h, seen);
        std::string word;
        const int64_t r = number(words >> word ? word : "", 0, h.p - 1, "rank");
        if (ranks->count(r)) throw std::invalid_argument("rank " + std::to_string(r) + " given twice");
        current = &(*ranks)[r];
      } else if (key == "step") {
        if (!current) throw std::invalid_argument("a step before any 'rank' line");
        current->push_back(parse_step(words, h, static_cast<int64_t>(current->size())));
      } else {
        if (current) throw std::invalid_argument("header line '" + key + "' after the first rank");
        parse_header_line(key, words, h, seen, version);
      }
      std::string extra;
      if (words >> extra) throw std::invalid_argument("unexpected '" + extra + "'");
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("line " + std::to_string(line_no) + ": " + e.what());
    }
  }
  if (version == 0) throw std::invalid_argument("empty plan: a plan file starts with 'collsim-plan 1' (or 2)");
  if (!current) check_header(h, seen);
  return {h, [ranks](int64_t r) {
            const auto it = ranks->find(r);
            return it == ranks->end() ? std::vector<Step>{} : it->second;
          }};
}

Plan read_plan_file(const std::string& path) {
  BoundedFileStream in(path, kMaxPlanFileBytes, "plan file");
  return read_plan(in);
}

}  // namespace collsim::plan
