// libcollsim-gpu-platform.so: a SimGrid 3.32 platform as a shared object
// (smpirun -platform libcollsim-gpu-platform.so). SimGrid calls
// load_platform(); the numbers come from the "key = value" file named by
// $COLLSIM_GPU_PLATFORM (written by the CLI, see gpu_platform.hpp for the
// layout this builds and what each number means).
#include <simgrid/s4u.hpp>

#include <cstdlib>
#include <stdexcept>

#include "bounded_read.hpp"
#include "gpu_platform.hpp"

namespace sg4 = simgrid::s4u;
using collsim::platforms::GpuPlatform;

namespace {

GpuPlatform read_parameters() {
  const char* path = std::getenv(collsim::platforms::kGpuPlatformEnv);
  if (!path) throw std::runtime_error(std::string("$") + collsim::platforms::kGpuPlatformEnv + " is not set");
  return collsim::platforms::gpu_platform_from_text(
      collsim::read_bounded_file(path, collsim::kMaxSmallFileBytes, "GPU platform file"));
}

// One node: its host, its loopback (per-message FATPIPE link, then the
// node's shared memory link) and its GPUs, each behind a host–device link.
sg4::NetZone* build_node(const GpuPlatform& pf, int64_t node, sg4::NetZone* cluster, const sg4::Host** gateway) {
  const std::string name = collsim::platforms::node_host_name(node);
  sg4::NetZone* zone = sg4::create_star_zone(name + "-zone");
  zone->set_parent(cluster);
  sg4::Host* host = zone->create_host(name, 1.0 / pf.gamma)->set_core_count(static_cast<int>(pf.procs_per_node))->seal();
  sg4::Link* message = zone->create_link(name + "-shm", 1.0 / pf.intra_beta)
                           ->set_latency(pf.intra_alpha)
                           ->set_sharing_policy(sg4::Link::SharingPolicy::FATPIPE)
                           ->seal();
  sg4::Link* memory = zone->create_link(name + "-memory", pf.node_memory_bw)->seal();
  // The node host reaches the zone's centre through no link (GPU copies cross only the GPU's link);
  // it talks to itself through its loopback.
  zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {}, true);
  zone->add_route(host->get_netpoint(), host->get_netpoint(), nullptr, nullptr,
                  {sg4::LinkInRoute(message), sg4::LinkInRoute(memory)}, false);
  for (int64_t g = 0; g < pf.gpus_per_node; ++g) {
    const std::string gname = collsim::platforms::gpu_host_name(node, g);
    sg4::Host* gpu = zone->create_host(gname, pf.gpu_flops)->seal();
    sg4::SplitDuplexLink* link = zone->create_split_duplex_link(gname + "-link", pf.link_bw);
    link->set_latency(pf.link_latency)->seal();
    zone->add_route(gpu->get_netpoint(), nullptr, nullptr, nullptr, {{link, sg4::LinkInRoute::Direction::UP}}, true);
  }
  zone->seal();
  *gateway = host;
  return zone;
}

}  // namespace

extern "C" void load_platform(const sg4::Engine& /*engine*/);

void load_platform(const sg4::Engine& /*engine*/) {
  const GpuPlatform pf = read_parameters();
  sg4::NetZone* cluster = sg4::create_star_zone("cluster");
  for (int64_t node = 0; node < pf.nodes; ++node) {
    const sg4::Host* gateway = nullptr;
    sg4::NetZone* zone = build_node(pf, node, cluster, &gateway);
    // α/2 on each node's link: a message between two nodes crosses two.
    sg4::SplitDuplexLink* ib =
        cluster->create_split_duplex_link(collsim::platforms::node_host_name(node) + "-ib", 1.0 / pf.beta);
    ib->set_latency(pf.alpha / 2)->seal();
    cluster->add_route(zone->get_netpoint(), nullptr, gateway->get_netpoint(), nullptr,
                       {{ib, sg4::LinkInRoute::Direction::UP}}, true);
  }
  cluster->seal();
}
