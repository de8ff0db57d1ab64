// SimGrid 3.32 platform descriptions for the α-β(-γ) cost model (seed 004
// §2.1): a message of m bytes between two nodes costs α + mβ, one byte of a
// reduction ⊕ costs γ on the host that computes it.
//
// Every platform is one flat <cluster>: each node has a private link to a
// crossbar and no backbone, so a route crosses two private links (lat = α/2,
// bw = 1/β). SPLITDUPLEX links model full duplex (a node sends and receives
// at once, each at 1/β); SHARED links model half duplex. Concurrent flows of
// one node share its link bandwidth (max-min fairness, CM02 model).
//
// With cores_per_node > 1 each node is one host with that many cores; ranks on
// the same host talk over the host's loopback link (one link: lat = intra α,
// bw = 1/intra β, FATPIPE, i.e. no sharing between concurrent intra-node
// flows — SimGrid's default for cluster loopbacks).
//
// LogGP overheads (o, g > 0; Alexandrov et al., SPAA '95; the rule itself
// is machine.hpp's). On a flat platform a message is sent eagerly (SMPI's
// detached sends, flowing before the receive is posted: the eager
// protocol) where Machine::eager_below() says: the sender is busy max(o, g) before
// it leaves (smpi/os for MPI_Send, smpi/ois for MPI_Isend and
// MPI_Sendrecv), and the receiver is busy o after the receive completes
// (smpi/or). Where the bytes go (Machine::bytes_at_sender):
//   - on the NIC (the default, and `loggp` since issue 33): each node's
//     link has bandwidth 1/G and latency L/2, so an eager message alone
//     costs max(o, g) + L + (m + envelope)G + o; a rank's overlapping sends
//     share its link, the messages into a node share its DOWN half
//     (incast), as max-min fairness shares them. Messages of eager_limit
//     bytes and more use the rendezvous protocol, charged as on a topology
//     (below). engine/shared_links.hpp follows both.
//   - on the sender (`oneported`): every message is eager, the sender busy
//     max(o, g) + m·G before it leaves and the links all but unbounded, so
//     a rank's sends go out one after another, as LogGP's gap per byte
//     says, and concurrent receives are not limited by G; a message costs
//     max(o, g) + m·G + L + o.
// Where g > o the first message of a burst also waits g − o. Wired as a
// topology (--topology), a LogGP platform's links keep bandwidth 1/G and
// latency L/2 per hop, so that routes that meet share them (contention),
// and messages use the rendezvous protocol as on the α-β platforms (a
// blocking send returns when its message has arrived); SMPI then charges
// the overheads only where a send is nonblocking: a plan step with both
// halves (MPI_Sendrecv) spends max(o, g) in MPI_Isend before its messages
// are posted; a blocking send (a step with one half) and every rendezvous
// receive are charged nothing (engine/shared_links.hpp follows this).
// Measured at p = 1,024, 64 KiB (tests/test_sim.cpp): a 2:1 taper adds
// exactly 5mG to recursive doubling and nothing to binomial.
// With o = g = 0 messages use the rendezvous protocol
// (send-is-detached-thresh 0) and the links' bandwidth 1/β, the α-β models'
// assumption.
//
// Host speed is 1/γ "flops" per second, so smpi_execute_flops(bytes) charges
// γ·bytes: a "flop" here is one byte of ⊕.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "machine.hpp"
#include "topology.hpp"

namespace collsim::platforms {

// A machine with a name: a preset's, or the platform file it was read from.
struct Platform : Machine {
  std::string name;    // "alphabeta", a preset name, or a file path
  std::string source;  // where the numbers come from (a comment)
};

// The largest cluster validate() accepts, and the most cores per node.
inline constexpr int64_t kMaxNodes = int64_t{1} << 24;
inline constexpr int64_t kMaxCoresPerNode = 4096;

// The built-in presets with their documented numbers; see platform.cpp.
const std::vector<Platform>& presets();
std::vector<std::string> preset_names();  // "alphabeta" first

// "alphabeta" or a preset name; nullptr if neither.
const Platform* find_preset(const std::string& name);

// One line naming `pf` and its numbers for figure titles: "loggp (L = 2.5 us,
// o = 1.5 us, g = 1 us, G = 0.1 ns/B, gamma = 0.1 ns/B)" where it has
// overheads, else "alphabeta (alpha = 5 us, beta = 1 ns/B, gamma = 1 ns/B,
// full duplex)"; nodes x cores where a node has several.
std::string summary(const Platform& pf);

// The parameters of `pf` (run at p ranks) that differ from its preset, one
// "what = value" each: L or alpha, G or beta, gamma, o, g, duplex, nodes,
// cores per node, the intra-node alpha and beta (where a node has several
// cores: elsewhere no message uses them), topology and placement. A flat
// preset's node count is "enough for p" (ceil(p / cores)), a cluster
// preset's its own. A platform file (no preset) is compared with a flat
// cluster of its own numbers, which summary() already names.
std::vector<std::string> changes(const Platform& pf, int64_t p);
// summary(pf) and, where something differs, "; changed: " and changes():
// the one line that names a platform in compare's output and every figure.
std::string describe(const Platform& pf, int64_t p);

// Throws std::invalid_argument naming the first bad field (α, β ≥ 0 finite,
// γ > 0, nodes ≥ 1, cores ≥ 1, ...).
void validate(const Machine& pf);

// Where a message's m·G (or m·β) is paid: on the links (α-β platforms,
// LogGP ones wired as a topology, and flat LogGP ones with the bytes on the
// NIC), or by the sender before the message leaves (flat LogGP platforms
// with Machine::bytes_at_sender, whose links are then all but unbounded).
bool bytes_on_links(const Machine& pf);
// The bandwidth platform_xml() gives the links between nodes: 1/β, or
// 10^18 B/s where the senders pay the bytes.
double link_bandwidth(const Machine& pf);
// `v` as SimGrid reads it back from platform_xml(), which prints 15
// significant digits: the XML's value, not ours, is what SimGrid simulates.
double as_written(double v);

// The smpirun --cfg flags that put `pf`'s o and g on SMPI (see above);
// none for an α-β platform.
std::vector<std::string> overhead_flags(const Platform& pf);

// A platform file, as `collsim calibrate` writes it and `--platform
// F.platform` reads it: a flat cluster of one rank per node (as alphabeta)
// with measured numbers, one `key value` line each, in any order, each once:
//   collsim-platform 1
//   # comments and blank lines anywhere
//   alpha 2.1e-07        L (seconds)
//   beta 1.2e-10         G (seconds per byte)
//   gamma 3.5e-10        seconds per byte of ⊕
//   o 1.9e-07            LogGP overhead (seconds)
//   g 2.4e-07            LogGP gap (seconds)
// Throws std::invalid_argument naming the line ("line 4: ...") or the
// missing key, and the rule a value breaks (alpha, o, g >= 0; beta, gamma
// > 0; all finite and at most 3600); the whole is then validate()d.
Platform read_platform_file(std::istream& in, const std::string& name);
void write_platform_file(std::ostream& out, const Platform& pf, const std::string& comment);

// The SimGrid 3.32 XML for `pf` (validated first). Hosts are named node-0 ..
// node-(nodes-1).
std::string platform_xml(const Platform& pf);

// An SMPI host file for p ranks placed block-wise, cores_per_node ranks per
// node (or round-robin, rank r on node r mod nodes), one line per rank (smpirun would otherwise unroll "host:count"
// lines into a temporary file in the current directory). Throws std::invalid_argument when p exceeds nodes ×
// cores_per_node.
std::string hostfile(const Platform& pf, int64_t p);
// Throws std::invalid_argument (hostfile's message) unless p ranks fit
// pf, without building the hostfile (p may be 2^31 − 1).
void check_fits(const Platform& pf, int64_t p);

}  // namespace collsim::platforms
