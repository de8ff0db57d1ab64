// The circulant sweep's findings: merged, packed for MPI and swept on this
// machine (circulant_sweep.hpp). `collsim verify circulant` and
// collsim-verify-mpi (commands/) read their command lines and call these.
#include "circulant_sweep.hpp"

#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "range_sweep.hpp"

namespace collsim {

namespace {

// Does (count, p, rank) replace the current maximum? A larger count, or the
// same count at a smaller (p, rank): ties go to the first place in (p, rank)
// order, so the summary does not depend on the order threads or MPI ranks
// finish in.
bool beats(int count, int64_t p, int64_t rank, int best, int64_t best_p, int64_t best_rank) {
  if (count != best) return count > best;
  return count > 0 && (p < best_p || (p == best_p && rank < best_rank));
}

}  // namespace

void CirculantSweep::merge(const CirculantBatchStats& s, int64_t p_recursion, int64_t p_violations) {
  if (beats(s.max_recursive_calls, p_recursion, s.rank_of_max_recursion, worst.max_recursive_calls,
            p_of_max_recursion, worst.rank_of_max_recursion)) {
    worst.max_recursive_calls = s.max_recursive_calls;
    worst.rank_of_max_recursion = s.rank_of_max_recursion;
    p_of_max_recursion = p_recursion;
  }
  if (beats(s.max_violations, p_violations, s.rank_of_max_violations, worst.max_violations, p_of_max_violations,
            worst.rank_of_max_violations)) {
    worst.max_violations = s.max_violations;
    worst.rank_of_max_violations = s.rank_of_max_violations;
    p_of_max_violations = p_violations;
  }
  for (size_t v = 0; v < s.violation_histogram.size(); ++v) worst.violation_histogram[v] += s.violation_histogram[v];
}

void CirculantSweep::merge(const CirculantSweep& other) {
  processors += other.processors;
  merge(other.worst, other.p_of_max_recursion, other.p_of_max_violations);
  if (other.failure && (!failure || other.failure->p < failure->p)) failure = other.failure;
}

// Numbers on one line, then the counterexample's numbers, condition and
// detail on lines of their own (the detail last: it may hold newlines).
std::string pack_sweep(const CirculantSweep& s) {
  std::ostringstream out;
  out << s.processors << ' ' << s.worst.max_recursive_calls << ' ' << s.worst.rank_of_max_recursion << ' '
      << s.p_of_max_recursion << ' ' << s.worst.max_violations << ' ' << s.worst.rank_of_max_violations << ' '
      << s.p_of_max_violations;
  for (int64_t count : s.worst.violation_histogram) out << ' ' << count;
  out << ' ' << s.failure.has_value() << '\n';
  if (const auto& f = s.failure)
    out << f->p << ' ' << f->rank << ' ' << f->k << '\n' << f->condition << '\n' << f->detail;
  return out.str();
}

CirculantSweep unpack_sweep(const std::string& text) {
  std::istringstream in(text);
  CirculantSweep s;
  bool failed = false;
  in >> s.processors >> s.worst.max_recursive_calls >> s.worst.rank_of_max_recursion >> s.p_of_max_recursion >>
      s.worst.max_violations >> s.worst.rank_of_max_violations >> s.p_of_max_violations;
  for (int64_t& count : s.worst.violation_histogram) in >> count;
  in >> failed;
  if (failed) {
    Counterexample f;
    in >> f.p >> f.rank >> f.k;
    in.ignore(1);
    std::getline(in, f.condition);
    std::getline(in, f.detail, '\0');
    s.failure = f;
  }
  return s;
}

CirculantSweep sweep_circulant(cli::Range range, const std::vector<int64_t>& blocks, int threads) {
  CirculantSweep total;
  std::mutex lock;  // guards total
  total.failure = sweep_range(range, threads, "verify circulant", [&](int64_t p) {
    CirculantBatchStats stats;
    auto failure = verify_circulant_p(p, blocks, stats);
    std::lock_guard<std::mutex> guard(lock);
    total.processors += p;
    total.merge(stats, p);
    return failure;
  });
  return total;
}

}  // namespace collsim
