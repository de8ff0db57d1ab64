// SimGrid's own view of a platform, for tests/test_routes.cpp: loads the
// XML with s4u and prints every link, then the route SimGrid gives each pair
// of hosts read from stdin ("SRC DST" node numbers, one pair a line):
//   link NAME BANDWIDTH LATENCY SHARING     (SHARING: SimGrid's enum value)
//   route SRC DST LATENCY NAME...
// One platform per process: SimGrid's zones number their links with
// counters that live as long as the process.
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: route_dump PLATFORM.xml < pairs\n");
    return 2;
  }
  std::string quiet = "--log=root.thres:critical";
  int engine_argc = 2;
  char* engine_argv[] = {argv[0], quiet.data(), nullptr};
  simgrid::s4u::Engine engine(&engine_argc, engine_argv);
  engine.load_platform(argv[1]);
  for (const simgrid::s4u::Link* link : engine.get_all_links())
    std::printf("link %s %.17g %.17g %d\n", link->get_cname(), link->get_bandwidth(), link->get_latency(),
                static_cast<int>(link->get_sharing_policy()));
  long src = 0, dst = 0;
  std::vector<simgrid::s4u::Link*> links;
  while (std::cin >> src >> dst) {
    const auto* from = simgrid::s4u::Host::by_name("node-" + std::to_string(src));
    const auto* to = simgrid::s4u::Host::by_name("node-" + std::to_string(dst));
    links.clear();
    double latency = 0;
    from->route_to(to, links, &latency);
    std::printf("route %ld %ld %.17g", src, dst, latency);
    for (const simgrid::s4u::Link* link : links) std::printf(" %s", link->get_cname());
    std::printf("\n");
  }
  return 0;
}
