// Collective communication times with the latency-bandwidth (alpha-beta) model of Thakur,
// Rabenseifner and Gropp (2005), as NCCL's "bus bandwidth" convention also assumes.
#pragma once

namespace tc {

// An achievable link: bandwidth per rank in one direction (bytes/s) and per-step latency (s).
struct Link {
  double bytes_per_s = 1;
  double latency_s = 0;
};

// Ring all-reduce: 2 (n-1)/n of the buffer crosses each rank's link, in 2 (n-1) steps.
double all_reduce_s(double bytes, int n, const Link& link);
// Reduce-scatter or all-gather (buffer = the full, unsharded size): half of a ring all-reduce.
double reduce_scatter_s(double bytes, int n, const Link& link);
// Pairwise all-to-all: each rank sends (n-1)/n of its buffer.
double all_to_all_s(double bytes, int n, const Link& link);
double point_to_point_s(double bytes, const Link& link);
// Hierarchical all-reduce: reduce-scatter inside each node over n_intra ranks, all-reduce of the
// 1/n_intra shard across n_inter nodes, all-gather inside the node (as NCCL's tree/ring mix does
// for multi-node jobs; see docs/model.md).
double hierarchical_all_reduce_s(double bytes, int n_intra, int n_inter, const Link& intra,
                                 const Link& inter);
// The same decomposition for a reduce-scatter (or an all-gather): half the all-reduce's bytes,
// with a ring's latency over all n_intra x n_inter ranks.
double hierarchical_reduce_scatter_s(double bytes, int n_intra, int n_inter, const Link& intra,
                                     const Link& inter);
// A ring over n ranks (n_intra per node on n_inter nodes) whose node-to-node traffic is not
// spread over the node's NICs: every rank's (n-1)/n share of the buffer leaves through its own
// share of the node's NICs (all ranks send at once); the latency is the ring's as above.
double single_rail_reduce_scatter_s(double bytes, int n, int n_intra, int n_inter, const Link& intra,
                                    const Link& inter);

}  // namespace tc
