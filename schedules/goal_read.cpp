// GOAL text to compact arrays (goal_read.hpp): a line-by-line lexer and a
// parser that follows txt2bin's grammar (LogGOPSim's txt2bin.re).
#include "goal_read.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "bounded_stream.hpp"

namespace collsim::goal {

namespace {

constexpr int64_t kMaxSize = int64_t{1} << 40;  // keeps size·G and size·γ in int64 picoseconds
constexpr int64_t kMaxRanks = (int64_t{1} << 31) - 1;

struct Token {
  enum Type { word, number, any, punct, end_of_line, end_of_file } type;
  std::string_view text;
};

// Words [a-zA-Z][a-zA-Z0-9_]*, numbers [0-9]+, `-1`, `:`, `{`, `}`, the
// end of a line; `//` and `/* */` comments are white space.
class Lexer {
 public:
  explicit Lexer(std::istream& in) : in_(in) {}

  int64_t line() const { return line_; }

  Token next() {
    while (true) {
      if (pos_ > text_.size()) {
        if (!std::getline(in_, text_)) return {Token::end_of_file, "end of file"};
        ++line_;
        pos_ = 0;
      }
      if (in_comment_) {
        const size_t close = text_.find("*/", pos_);
        pos_ = close == std::string::npos ? text_.size() + 1 : close + 2;
        in_comment_ = close == std::string::npos;
        continue;
      }
      while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) ++pos_;
      if (pos_ == text_.size()) {
        ++pos_;
        return {Token::end_of_line, "end of line"};
      }
      if (text_.compare(pos_, 2, "//") == 0) {
        pos_ = text_.size();
        continue;
      }
      if (text_.compare(pos_, 2, "/*") == 0) {
        pos_ += 2;
        in_comment_ = true;
        continue;
      }
      return token();
    }
  }

 private:
  Token token() {
    const size_t start = pos_;
    const auto is = [&](auto pred) { return pos_ < text_.size() && pred(static_cast<unsigned char>(text_[pos_])); };
    const auto view = [&] { return std::string_view(text_).substr(start, pos_ - start); };
    if (is(::isalpha)) {
      while (is(::isalnum) || is([](int c) { return c == '_'; })) ++pos_;
      return {Token::word, view()};
    }
    if (is(::isdigit)) {
      while (is(::isdigit)) ++pos_;
      return {Token::number, view()};
    }
    if (text_.compare(pos_, 2, "-1") == 0) {
      pos_ += 2;
      return {Token::any, view()};
    }
    ++pos_;
    return {Token::punct, view()};
  }

  std::istream& in_;
  std::string text_;
  size_t pos_ = 1;  // past the end: read a line first
  int64_t line_ = 0;
  bool in_comment_ = false;
};

// One rank block's labels and dependency lines, until its `}`.
struct Block {
  int64_t rank = -1;  // -1: outside a block
  std::unordered_map<std::string, int64_t> labels;  // to the block's operation index
  std::vector<Edge> edges;
  std::vector<int64_t> lines;  // each edge's line
};

class Parser {
 public:
  explicit Parser(std::istream& in) : lex_(in) {}

  Schedule parse() {
    for (advance(); tok_.type != Token::end_of_file;) item();
    if (block_.rank >= 0) fail("end of file inside rank " + std::to_string(block_.rank) + "'s block (a '}' is missing)");
    if (s_.ranks == 0) fail("no num_ranks line");
    if (next_rank_ < s_.ranks)
      fail("no block for rank " + std::to_string(next_rank_) + " (the file needs blocks for ranks 0 .. " +
           std::to_string(s_.ranks - 1) + ")");
    return std::move(s_);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("line " + std::to_string(std::max<int64_t>(lex_.line(), 1)) + ": " + what);
  }
  [[noreturn]] void expected(const std::string& what) const {
    fail("expected " + what + ", found '" + std::string(tok_.text) + "'");
  }
  void advance() { tok_ = lex_.next(); }
  bool at(std::string_view word) const { return tok_.type == Token::word && tok_.text == word; }
  void expect(std::string_view text) {
    if (tok_.text != text || (tok_.type != Token::word && tok_.type != Token::punct)) expected("'" + std::string(text) + "'");
    advance();
  }
  int64_t number(const std::string& what, int64_t most, bool any_allowed = false) {
    if (any_allowed && tok_.type == Token::any) {
      advance();
      return kAny;
    }
    if (tok_.type != Token::number) expected(what);
    int64_t n = 0;
    for (char c : tok_.text) {
      n = n * 10 + (c - '0');
      if (n > most) fail(what + " " + std::string(tok_.text) + " is too large (at most " + std::to_string(most) + ")");
    }
    advance();
    return n;
  }
  // Ends a statement: what fails before this names the statement's line.
  void end_of_line() {
    if (tok_.type != Token::end_of_line && tok_.type != Token::end_of_file) expected("the end of the line");
    advance();
  }

  void item() {
    if (tok_.type == Token::end_of_line) return advance();
    if (at("num_ranks")) return num_ranks();
    if (at("rank")) return open_block();
    if (tok_.text == "}" && tok_.type == Token::punct) return close_block();
    if (tok_.type != Token::word) expected("num_ranks, rank, '}', an operation or a label");
    if (block_.rank < 0) fail("'" + std::string(tok_.text) + "' outside a rank block");
    if (at("send") || at("recv") || at("calc")) return operation("");
    const std::string label(tok_.text);
    advance();
    if (tok_.text == ":" && tok_.type == Token::punct) {
      advance();
      return operation(label);
    }
    if (at("requires") || at("irequires")) return dependency(label);
    expected("':', requires or irequires after '" + label + "' (or a keyword: num_ranks, rank, send, recv, calc)");
  }

  void num_ranks() {
    if (s_.ranks > 0 || block_.rank >= 0) fail("num_ranks comes once, before the rank blocks");
    advance();
    s_.ranks = number("a rank count", kMaxRanks);
    if (s_.ranks < 1) fail("num_ranks must be at least 1");
    s_.first_op.push_back(0);
  }

  void open_block() {
    if (s_.ranks == 0) fail("a rank block before num_ranks");
    if (block_.rank >= 0) fail("rank block inside rank " + std::to_string(block_.rank) + "'s block (a '}' is missing)");
    advance();
    const int64_t r = number("a rank", kMaxRanks);
    if (r != next_rank_)
      fail(next_rank_ < s_.ranks ? "rank " + std::to_string(r) + "'s block where rank " + std::to_string(next_rank_) +
                                       "'s comes (blocks for ranks 0 .. num_ranks − 1, in order)"
                                 : "rank " + std::to_string(r) + ": num_ranks is " + std::to_string(s_.ranks));
    expect("{");
    block_.rank = r;
  }

  void close_block();
  [[noreturn]] void cycle(const std::vector<uint32_t>& waits) const;
  void operation(const std::string& label);
  void dependency(const std::string& label);
  int64_t block_label(const std::string& label);

  Lexer lex_;
  Token tok_{Token::end_of_line, ""};
  Schedule s_;
  Block block_;
  int64_t next_rank_ = 0;
};

// `send Sb to D [tag T] [cpu C] [nic N]`, `recv Sb from S|-1 [tag T|-1] ..`,
// `calc C [cpu C]`.
void Parser::operation(const std::string& label) {
  Op op;
  if (at("send"))
    op.kind = OpKind::send;
  else if (at("recv"))
    op.kind = OpKind::recv;
  else if (!at("calc"))
    expected("send, recv or calc after '" + label + ":'");
  advance();
  op.size = number(op.kind == OpKind::calc ? "a calc's time units" : "a size in bytes", kMaxSize);
  if (op.kind != OpKind::calc) {
    expect("b");
    expect(op.kind == OpKind::send ? "to" : "from");
    const int64_t peer = number("a rank", kMaxRanks, op.kind == OpKind::recv);
    if (peer != kAny && peer >= s_.ranks)
      fail("rank " + std::to_string(peer) + " is not below num_ranks " + std::to_string(s_.ranks));
    op.peer = uint32_t(peer);
    if (at("tag")) {
      advance();
      op.tag = uint32_t(number("a tag", kAny - 1, true));
    }
  }
  if (at("cpu")) {
    advance();
    op.cpu = uint8_t(number("a CPU", 255));
  }
  if (op.kind != OpKind::calc && at("nic")) {
    advance();
    op.nic = uint8_t(number("a NIC", 255));
  }
  const int64_t index = int64_t(s_.ops.size()) - s_.first_op.back();
  if (!label.empty() && !block_.labels.emplace(label, index).second)
    fail("label '" + label + "' is defined twice in rank " + std::to_string(block_.rank) + "'s block");
  end_of_line();
  s_.cpus = std::max<int64_t>(s_.cpus, op.cpu + 1);
  s_.nics = std::max<int64_t>(s_.nics, op.nic + 1);
  s_.ops.push_back(op);
  s_.waits.push_back(0);
}

int64_t Parser::block_label(const std::string& label) {
  const auto it = block_.labels.find(label);
  if (it == block_.labels.end())
    fail("unknown label '" + label + "' (a dependency names labels of its rank's block defined on earlier lines)");
  return it->second;
}

// `A requires B`, `A irequires B`.
void Parser::dependency(const std::string& label) {
  const bool on_start = at("irequires");
  advance();
  if (tok_.type != Token::word) expected("a label");
  const int64_t waiting = block_label(label);
  const int64_t first = block_label(std::string(tok_.text));
  advance();
  if (++s_.waits[size_t(s_.first_op.back() + waiting)] == 0) fail("too many dependencies on one operation");
  block_.edges.push_back({first, waiting, on_start});
  block_.lines.push_back(lex_.line());
  end_of_line();
}

// Names a dependency line on a cycle among the operations Kahn's order
// could not reach (`waits` > 0): each of them waits for another of them, so
// walking back from one `count` times lands on the cycle.
void Parser::cycle(const std::vector<uint32_t>& waits) const {
  std::vector<size_t> into(waits.size(), 0);  // a line into each waiting operation from another
  size_t op = 0;
  for (size_t k = 0; k < block_.edges.size(); ++k) {
    const Edge& e = block_.edges[k];
    if (waits[size_t(e.from)] > 0 && waits[size_t(e.to)] > 0) into[size_t(e.to)] = k, op = size_t(e.to);
  }
  for (size_t step = 0; step < waits.size(); ++step) op = size_t(block_.edges[into[op]].from);
  throw std::invalid_argument("line " + std::to_string(block_.lines[into[op]]) +
                              ": this dependency is on a cycle in rank " + std::to_string(block_.rank) +
                              "'s block (its operations could never start)");
}

// Appends the block's dependency lists, refusing a cycle (txt2bin would
// leave its operations unrun).
void Parser::close_block() {
  if (block_.rank < 0) fail("'}' outside a rank block");
  const int64_t base = s_.first_op.back();
  const int64_t count = int64_t(s_.ops.size()) - base;
  append_dependents(s_, count, block_.edges);
  // Kahn's order over both kinds of dependency: what it cannot reach is on a cycle.
  std::vector<uint32_t> waits(s_.waits.begin() + base, s_.waits.end());
  std::vector<int64_t> ready;
  for (int64_t i = 0; i < count; ++i)
    if (waits[size_t(i)] == 0) ready.push_back(i);
  for (size_t k = 0; k < ready.size(); ++k)
    for (const Dependents* d : {&s_.after_done, &s_.after_start})
      for (const int64_t* t = d->first(base + ready[k]); t != d->last(base + ready[k]); ++t)
        if (--waits[size_t(*t - base)] == 0) ready.push_back(*t - base);
  if (int64_t(ready.size()) < count) cycle(waits);
  s_.first_op.push_back(int64_t(s_.ops.size()));
  block_ = Block{};
  ++next_rank_;
  advance();
}

}  // namespace

void append_dependents(Schedule& s, int64_t count, const std::vector<Edge>& edges) {
  const int64_t base = int64_t(s.ops.size()) - count;
  for (Dependents* d : {&s.after_done, &s.after_start}) {
    const bool on_start = d == &s.after_start;
    std::vector<int64_t> per_op(size_t(count), 0);
    for (const Edge& e : edges)
      if (e.on_start == on_start) ++per_op[size_t(e.from)];
    for (int64_t i = 0; i < count; ++i) d->begin.push_back(d->begin.back() + per_op[size_t(i)]);
    d->to.resize(size_t(d->begin.back()));
    std::vector<int64_t> fill(size_t(count), 0);
    for (const Edge& e : edges)
      if (e.on_start == on_start) d->to[size_t(d->begin[size_t(base + e.from)] + fill[size_t(e.from)]++)] = base + e.to;
  }
}

Schedule read_goal(std::istream& in) { return Parser(in).parse(); }

void require_ranks(const Schedule& schedule, int64_t ranks, const std::string& whose) {
  if (schedule.ranks != ranks)
    throw std::invalid_argument("num_ranks is " + std::to_string(schedule.ranks) + ", " + whose + " " +
                                std::to_string(ranks));
}

Schedule read_goal_file(const std::string& path) {
  BoundedFileStream in(path, kMaxPlanFileBytes, "GOAL file");
  return read_goal(in);
}

bool is_goal_file(const std::string& path) {
  if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".goal") == 0) return true;
  // Only a regular file's first 64 KiB are looked at: /dev/zero, a
  // directory or a pipe is left whole to the plan reader, which refuses it
  // (or reads the pipe) in one line.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  std::ifstream file(path, std::ios::binary);
  std::string head(size_t{1} << 16, '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(file.gcount()));
  std::istringstream in(head);
  try {
    Lexer lex(in);
    Token t = lex.next();
    while (t.type == Token::end_of_line) t = lex.next();
    return t.type == Token::word && t.text == "num_ranks";
  } catch (const std::invalid_argument&) {
    return false;  // not GOAL's start, whatever it is
  }
}

}  // namespace collsim::goal
