// The one machine description (issue 32): what the SimGrid platform writer
// (platform.cpp), the plan engine (engine/loggp.hpp), the algorithms' cost
// models and the block policy (algorithms/algorithm.hpp's Net), the PMPI
// library and `collsim calibrate` all read. Pure C++17, header only.
//
// The numbers are LogGP's (Alexandrov et al., SPAA '95) with α-β names:
// `alpha` is L, the wire's latency between two nodes, and `beta` is G, the
// seconds per byte; on a platform without overheads (o = g = 0) they are
// seed 004's α and β, and a message of m bytes costs α + (m + envelope)β.
// α is only ever the wire's latency: the overheads are added where a cost is
// asked for (per_message), never folded into α and taken out again.
//
// The per-message rule of LogGP as SMPI charges it (platform.hpp says how
// the SimGrid flags do it), written here once:
//   the sender is busy max(o, g) before each message leaves (send_overhead),
//   the receiver is busy o after each message arrives (recv_overhead),
// so a message between idle ranks has the fixed cost
//   max(o, g) + L + o                                       (per_message)
// and, on an α-β platform, α.
//   loggp (L = 2.5 µs, o = 1.5 µs, g = 1 µs): 1.5 + 2.5 + 1.5 = 5.5 µs.
#pragma once

#include <algorithm>
#include <cstdint>

#include "topology.hpp"

namespace collsim::platforms {

// The defaults are alphabeta's numbers: what the PMPI library and
// collsim-mpi assume where no platform describes the machine.
struct Machine {
  double alpha = 5e-6; // L: seconds a message spends between two nodes
  double beta = 1e-9;  // G: seconds per byte between nodes
  double gamma = 1e-9; // seconds per byte of ⊕
  bool full_duplex =
      true;          // a node sends and receives at once at full bandwidth
  int64_t nodes = 1; // cluster size
  int64_t cores_per_node = 1;
  double intra_alpha = 0; // seconds per message within a node
  double intra_beta = 0;  // seconds per byte within a node
  double o =
      0; // LogGP overhead: seconds of a rank's CPU per send and per receive
  double g = 0;      // LogGP gap: seconds between a rank's consecutive sends
  Topology topology; // how the nodes are wired (topology.hpp)
  bool round_robin =
      false; // rank r on node r mod nodes, not r / cores_per_node
  int64_t envelope =
      16; // bytes SMPI adds to every message (no setting removes them)
  // Where a flat LogGP platform pays a message's m·G (issue 33): false, on
  // the node's NIC (its link carries the bytes at 1/G, shared max-min by
  // what the node sends and, apart, by what it receives, so incast costs
  // what it costs); true, on the sender's CPU before the message leaves
  // (the papers' one-ported model: a rank's sends go out one after
  // another, receives are never limited). Read only where o or g > 0 on a
  // flat platform: elsewhere the links carry the bytes.
  bool bytes_at_sender = false;
  // On a flat LogGP platform with the bytes on the NIC, messages of fewer
  // bytes are sent eagerly (flowing at once, the sender free after its
  // overhead), larger ones by rendezvous (flowing once the receive is
  // posted): SMPI's default send-is-detached-thresh, the order of MPI
  // libraries' eager limits (UCX, Open MPI's ob1 and MPICH's ch4 switch
  // between 8 and 64 KiB).
  int64_t eager_limit = 65536;

  // Does the machine charge LogGP overheads (o or g > 0)?
  bool has_overheads() const { return o > 0 || g > 0; }
  // The sender's busy time before a message leaves: max(o, g).
  double send_overhead() const { return std::max(o, g); }
  // The receiver's busy time after a message arrives: o.
  double recv_overhead() const { return o; }
  // The fixed cost of one message between idle ranks of different nodes.
  double per_message() const {
    return send_overhead() + alpha + recv_overhead();
  }
  // The same for a message of `bytes`: SMPI charges a rendezvous one no
  // receive overhead (platform.hpp).
  double per_message(int64_t bytes) const {
    return per_message() - (bytes < eager_below() ? 0 : recv_overhead());
  }
  // Messages of fewer bytes than this are sent eagerly (SMPI's detached
  // sends, flowing before their receive is posted), larger ones by
  // rendezvous: on a flat LogGP platform eager_limit where the NIC carries
  // the bytes, every size where the sender pays them; elsewhere (α-β
  // platforms, topologies) none.
  int64_t eager_below() const {
    if (!has_overheads() || topology.kind != Topology::Kind::flat) return 0;
    return bytes_at_sender ? INT64_MAX : eager_limit;
  }
  // Do the senders pay the bytes, every size eager? bytes_at_sender where
  // it is read: a flat platform with overheads (platforms::bytes_on_links
  // is the opposite).
  bool senders_pay() const { return eager_below() == INT64_MAX; }

  // The ranks that share a node as consecutive ranks: what the node-aware
  // algorithms group by. Block placement: the cores of a node; round-robin
  // puts neighbours on different nodes, so 1 (the node-aware algorithms run
  // flat).
  int64_t node_size() const { return round_robin ? 1 : cores_per_node; }
};

} // namespace collsim::platforms
