#include "range_sweep.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "bounded_read.hpp"  // limit_text
#include "errors.hpp"

namespace collsim {

void check_sweep_memory(cli::Range range, int threads, int64_t bytes_per_rank, const std::string& label) {
  const int64_t at_once = std::min<int64_t>(threads, range.hi - range.lo + 1);
  const int64_t most_p = kMaxSweepBytes / bytes_per_rank / at_once;
  if (range.hi <= most_p) return;
  const int64_t mib = (range.hi * bytes_per_rank * at_once + (int64_t{1} << 20) - 1) >> 20;  // < 2^47: no overflow
  throw LimitError(label + ": p = " + std::to_string(range.hi) + " on " + std::to_string(at_once) +
                   " thread(s) needs about " + std::to_string(mib) + " MiB, over the limit of " +
                   limit_text(kMaxSweepBytes) + ": --p up to " + std::to_string(most_p) + " (or fewer --threads)");
}

std::optional<Counterexample> sweep_range(cli::Range range, int threads, const std::string& label,
                                          const std::function<std::optional<Counterexample>(int64_t p)>& check) {
  std::atomic<int64_t> next_p{range.lo}, first_bad_p{INT64_MAX}, done_procs{0};
  const double all_procs = 0.5 * double(range.hi + range.lo) * double(range.hi - range.lo + 1);
  std::optional<Counterexample> failure;
  std::mutex lock;
  cli::Progress progress(label);
  auto worker = [&](bool reports) {
    for (int64_t p; (p = next_p.fetch_add(1)) <= range.hi && p < first_bad_p;) {
      if (auto f = check(p)) {
        std::lock_guard<std::mutex> guard(lock);
        if (p < first_bad_p) first_bad_p = p, failure = f;
      }
      done_procs += p;
      if (reports) progress.update(double(done_procs) / all_procs, "p=" + std::to_string(p));
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(worker, false);
  worker(true);
  for (auto& t : pool) t.join();
  return failure;
}

}  // namespace collsim
