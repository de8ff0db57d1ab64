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

namespace {
double combine_time(const Net& net, int64_t bytes, bool combines) {
  return combines ? net.gamma * static_cast<double>(bytes) : 0;
}
}  // namespace

double Net::tree_gap(int64_t bytes, bool combines) const {
  const double combine = combine_time(*this, bytes, combines);
  if (bytes >= eager_below()) return message(bytes) + combine;
  const double wire = static_cast<double>(bytes + envelope) * beta;
  if (combines) return bytes_at_sender ? recv_overhead() + combine : std::max(recv_overhead() + combine, wire);
  return bytes_at_sender ? send_overhead() + wire : std::max(send_overhead(), wire);
}

double Net::tree_lag(int64_t bytes, bool combines) const {
  return (message(bytes) + combine_time(*this, bytes, combines)) / tree_gap(bytes, combines);
}

}  // namespace collsim::sim
