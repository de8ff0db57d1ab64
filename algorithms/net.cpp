// Net's circulant round and LogP tree costs (algorithm.hpp).
#include <algorithm>

#include "algorithm.hpp"

namespace collsim::sim {

double Net::shift_round(int64_t p, int64_t skip, double bytes, double fbeta) const {
  const double wire = (bytes + static_cast<double>(envelope)) * fbeta;
  const double within = intra().per_message() + wire * intra_beta;
  if (node_count(p) == 1 && node_size() > 1) return within;
  const int64_t c = node_ranks(p), d = skip % p, cross = std::min({c, d, p - d});
  const double across = per_message() + wire * beta * static_cast<double>(cross);
  return cross >= c ? across : std::max(across, within);
}

double Net::tree_gap(int64_t bytes) const {
  if (bytes >= eager_below()) return message(bytes);
  const double wire = static_cast<double>(bytes + envelope) * beta;
  return bytes_at_sender ? send_overhead() + wire : std::max(send_overhead(), wire);
}

double Net::tree_lag(int64_t bytes) const { return message(bytes) / tree_gap(bytes); }

}  // namespace collsim::sim
