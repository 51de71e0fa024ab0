#include "core/collectives.hpp"

namespace tc {

double all_reduce_s(double bytes, int n, const Link& link) {
  if (n <= 1 || bytes <= 0) return 0;
  return 2.0 * (n - 1) / n * bytes / link.bytes_per_s + 2.0 * (n - 1) * link.latency_s;
}

double reduce_scatter_s(double bytes, int n, const Link& link) {
  if (n <= 1 || bytes <= 0) return 0;
  return static_cast<double>(n - 1) / n * bytes / link.bytes_per_s + (n - 1) * link.latency_s;
}

double all_to_all_s(double bytes, int n, const Link& link) {
  return reduce_scatter_s(bytes, n, link);
}

double point_to_point_s(double bytes, const Link& link) {
  if (bytes <= 0) return 0;
  return bytes / link.bytes_per_s + link.latency_s;
}

double hierarchical_all_reduce_s(double bytes, int n_intra, int n_inter, const Link& intra,
                                 const Link& inter) {
  const double shard = n_intra > 1 ? bytes / n_intra : bytes;
  return 2.0 * reduce_scatter_s(bytes, n_intra, intra) + all_reduce_s(shard, n_inter, inter);
}

namespace {
// NCCL runs reduce-scatter and all-gather only as rings (its trees serve all-reduce): one step
// per rank, n_inter of them between nodes.
double ring_latency_s(int n_intra, int n_inter, const Link& intra, const Link& inter) {
  if (n_intra * n_inter <= 1) return 0;
  return n_inter > 1 ? n_inter * inter.latency_s + n_inter * (n_intra - 1) * intra.latency_s
                     : (n_intra - 1) * intra.latency_s;
}
}  // namespace

double hierarchical_reduce_scatter_s(double bytes, int n_intra, int n_inter, const Link& intra,
                                     const Link& inter) {
  const double shard = n_intra > 1 ? bytes / n_intra : bytes;
  const Link intra_bw{intra.bytes_per_s, 0}, inter_bw{inter.bytes_per_s, 0};
  const double bandwidth = reduce_scatter_s(bytes, n_intra, intra_bw) + reduce_scatter_s(shard, n_inter, inter_bw);
  return bytes > 0 ? bandwidth + ring_latency_s(n_intra, n_inter, intra, inter) : 0;
}

double single_rail_reduce_scatter_s(double bytes, int n, int n_intra, int n_inter, const Link& intra,
                                    const Link& inter) {
  const Link inter_bw{inter.bytes_per_s, 0};
  return bytes > 0 ? reduce_scatter_s(bytes, n, inter_bw) + ring_latency_s(n_intra, n_inter, intra, inter) : 0;
}

}  // namespace tc
