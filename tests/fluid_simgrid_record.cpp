// SimGrid's own completion times for a list of host-to-host transfers, the
// reference test_fluid_simgrid holds engine/fluid.hpp against. Plain s4u (no
// SMPI): one actor per transfer sleeps until its start, then
// sg4::Comm::sendto_async(src, dst, bytes) and waits.
//
//   fluid_simgrid_record PLATFORM.xml FLOWS OUT [--cfg=...]
//
// FLOWS: one transfer a line, "SRC_HOST DST_HOST START_S BYTES".
// OUT:   "link NAME BANDWIDTH_BPS shared|fatpipe" for every link some route
//        crosses, "route SRC DST LATENCY_S LINK..." for every pair used (as
//        SimGrid routes it), "flow INDEX CALL START_S END_S FINISHED" for
//        every transfer (%.17g): CALL numbers the sendto_async calls in the
//        order SimGrid's actors made them (transfers due at the same time
//        start in SimGrid's actor order, not the file's), START_S is the
//        clock then; FINISHED numbers the waits' returns, the order in which
//        SimGrid finished the transfers (its actors wake in that order, so
//        transfers ending at one instant are numbered as SimGrid took them).
#include <simgrid/s4u.hpp>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

struct Transfer {
  std::string src, dst;
  double start = 0;
  uint64_t bytes = 0;
  double started = -1, end = -1;
  int call = -1;
  int finished = -1;
};

std::vector<Transfer> read_transfers(const char* path) {
  std::ifstream in(path);
  std::vector<Transfer> list;
  Transfer t;
  while (in >> t.src >> t.dst >> t.start >> t.bytes) list.push_back(t);
  if (!in.eof()) throw std::runtime_error(std::string("cannot read ") + path);
  return list;
}

void write_routes(FILE* out, const std::vector<Transfer>& list, const sg4::Engine& e) {
  std::set<std::pair<std::string, std::string>> pairs;
  std::map<std::string, const sg4::Link*> links;
  std::string lines;
  for (const Transfer& t : list) {
    if (!pairs.insert({t.src, t.dst}).second) continue;
    std::vector<sg4::Link*> route;
    double latency = 0;
    e.host_by_name(t.src)->route_to(e.host_by_name(t.dst), route, &latency);
    char head[64];
    std::snprintf(head, sizeof head, " %.17g", latency);
    lines += "route " + t.src + " " + t.dst + head;
    for (const sg4::Link* l : route) {
      lines += " " + l->get_name();
      links[l->get_name()] = l;
    }
    lines += "\n";
  }
  for (const auto& [name, l] : links) {
    const auto policy = l->get_sharing_policy();
    if (policy != sg4::Link::SharingPolicy::SHARED && policy != sg4::Link::SharingPolicy::FATPIPE)
      throw std::runtime_error("link " + name + ": neither SHARED nor FATPIPE");
    std::fprintf(out, "link %s %.17g %s\n", name.c_str(), l->get_bandwidth(),
                 policy == sg4::Link::SharingPolicy::SHARED ? "shared" : "fatpipe");
  }
  std::fputs(lines.c_str(), out);
}

}  // namespace

int main(int argc, char** argv) {
  sg4::Engine e(&argc, argv);
  if (argc != 4) {
    std::cerr << "usage: fluid_simgrid_record PLATFORM.xml FLOWS OUT [--cfg=...]\n";
    return 2;
  }
  e.load_platform(argv[1]);
  std::vector<Transfer> list = read_transfers(argv[2]);
  int calls = 0, ends = 0;
  for (Transfer& t : list) {
    sg4::Host* src = e.host_by_name(t.src);
    sg4::Host* dst = e.host_by_name(t.dst);
    sg4::Actor::create("transfer", src, [&t, &calls, &ends, src, dst] {
      sg4::this_actor::sleep_until(t.start);
      t.started = sg4::Engine::get_clock();
      t.call = calls++;
      sg4::Comm::sendto_async(src, dst, t.bytes)->wait();
      t.end = sg4::Engine::get_clock();
      t.finished = ends++;
    });
  }
  e.run();
  FILE* out = std::fopen(argv[3], "w");
  if (!out) {
    std::cerr << "cannot write " << argv[3] << "\n";
    return 1;
  }
  write_routes(out, list, e);
  for (size_t i = 0; i < list.size(); ++i)
    std::fprintf(out, "flow %zu %d %.17g %.17g %d\n", i, list[i].call, list[i].started, list[i].end, list[i].finished);
  std::fclose(out);
  return 0;
}
