// The collectives collsim knows, shared by schedules and plans (pure C++)
// and by the catalog, the driver and the ranks.
#pragma once

#include <stdexcept>
#include <string>

namespace collsim {

// What `bytes` (the m of the cost models) means per collective:
//   bcast          the message
//   reduce, allreduce, scan, exscan
//                  each rank's input vector (= its result)
//   reduce_scatter each rank's input vector; rank r gets counts[r] elements
//                  of the reduced vector (MPI_Reduce_scatter; equal counts
//                  are MPI_Reduce_scatter_block)
//   allgatherv     the gathered vector; rank r contributes counts[r] bytes
enum class Collective { bcast, reduce, allreduce, reduce_scatter, allgatherv, scan, exscan };
inline constexpr Collective kCollectives[] = {Collective::bcast,          Collective::reduce,
                                              Collective::allreduce,      Collective::reduce_scatter,
                                              Collective::allgatherv,     Collective::scan,
                                              Collective::exscan};

inline const char* collective_name(Collective c) {
  static const char* const names[] = {"bcast", "reduce", "allreduce", "reduce_scatter", "allgatherv", "scan", "exscan"};
  return names[static_cast<int>(c)];
}

// Throws std::invalid_argument listing the known collectives.
inline Collective parse_collective(const std::string& name) {
  std::string known;
  for (Collective c : kCollectives) {
    if (name == collective_name(c)) return c;
    known += (known.empty() ? "" : ", ") + std::string(collective_name(c));
  }
  throw std::invalid_argument("unknown collective '" + name + "'; known: " + known);
}

// Does the collective have a root (and so take --root)?
inline bool rooted(Collective c) { return c == Collective::bcast || c == Collective::reduce; }

// Does the collective apply ⊕ (and so take --op)?
inline bool reduces(Collective c) { return c != Collective::bcast && c != Collective::allgatherv; }

}  // namespace collsim
