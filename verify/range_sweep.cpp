#include "range_sweep.hpp"

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace collsim {

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
