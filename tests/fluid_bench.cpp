// engine/fluid.hpp at scale (not a test: run build/tests/fluid_bench and
// read the times). Two shapes:
//   components: 10^6 flows in 10^5 independent pairs of links (a node's
//     NIC up and its peer's NIC down, 10 flows each), random sizes and starts;
//   one-link:   10^4 flows, each over its own up link, one shared link and
//     its own down link: one component of 2·10^4 + 1 links.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "fluid.hpp"
#include "fluid_replay.hpp"

using collsim::engine::FluidNetwork;
using collsim::engine::testing::Transfer;

namespace {

double peak_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024.0;
}

void run(const char* name, FluidNetwork& net, const std::vector<Transfer>& list) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<double> end = collsim::engine::testing::replay(net, list);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double last = 0;
  for (double e : end) last = std::max(last, e);
  std::printf("%s: %zu flows, wall %.2f s, last completion %.6g s, peak RSS %.0f MiB\n", name, list.size(), wall, last,
              peak_mib());
}

std::vector<Transfer> random_transfers(size_t count, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> start(0, 1e-3), bytes(1e3, 1e6);
  std::vector<Transfer> list(count);
  for (Transfer& t : list) t = Transfer{start(rng), {}, 1e-6, bytes(rng)};
  return list;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string only = argc > 1 ? argv[1] : "";
  if (only.empty() || only == "components") {
    FluidNetwork net;
    std::vector<Transfer> list = random_transfers(1000000, 1);
    for (size_t c = 0; c < 100000; ++c) {
      const auto up = net.add_link(12.5e9, FluidNetwork::Sharing::shared);
      const auto down = net.add_link(12.5e9, FluidNetwork::Sharing::shared);
      for (size_t i = 0; i < 10; ++i) list[c * 10 + i].route = {up, down};
    }
    run("components", net, list);
  }
  if (only.empty() || only == "one-link") {
    FluidNetwork net;
    std::vector<Transfer> list = random_transfers(10000, 2);
    const auto shared = net.add_link(12.5e9, FluidNetwork::Sharing::shared);
    for (Transfer& t : list)
      t.route = {net.add_link(12.5e9, FluidNetwork::Sharing::shared), shared,
                 net.add_link(12.5e9, FluidNetwork::Sharing::shared)};
    run("one-link", net, list);
  }
  return 0;
}
