#include "core/labels.hpp"

#include <cctype>
#include <cstdlib>
#include <utility>

#include "core/commitments.hpp"

namespace tc {

namespace {

// One table, id -> label. Terms from estimate.cpp (breakdown_s), cost.cpp (WallTime::terms,
// instance_usd_by_term), bill_extras.cpp and owned_cluster.cpp (bill items).
const std::pair<const char*, const char*> kLabels[] = {
    // Step time (Estimate::breakdown_s).
    {"matmul", "matrix multiplies"},
    {"attention", "attention"},
    {"memory_bound", "memory-bound work"},
    {"recompute", "recomputation"},
    {"tp_comm", "tensor-parallel collectives"},
    {"cp_comm", "context-parallel collectives"},
    {"ep_comm", "expert-parallel all-to-all"},
    {"pp_p2p", "pipeline transfers"},
    {"pp_bubble", "pipeline bubble"},
    {"dp_comm", "data-parallel reduction (exposed)"},
    {"optimizer", "optimizer step"},
    {"step_overhead", "graph tracing and sync (per step)"},
    {"pick_optimism", "searched plan's expected shortfall"},
    // Wall time of a run (WallTime::terms) and the compute cost by term.
    {"training", "training"},
    {"compile", "compilation"},
    {"warmup", "warm-up"},
    {"checkpoints", "checkpoint writes"},
    {"failures", "failures and restarts"},
    {"spot_interruptions", "spot interruptions"},
    {"queue", "queueing"},
    {"reruns", "reruns of failed runs"},
    {"incidents", "incidents"},
    {"idle_commitment", "commitment paid, not used"},
    // Bill items other than instance.<tier>.
    {"storage.s3_standard", "S3 Standard storage"},
    {"storage.s3_express_one_zone", "S3 Express One Zone storage"},
    {"storage.fsx_lustre", "FSx for Lustre storage"},
    {"transfer.egress", "internet egress"},
    {"transfer.cross_region", "inter-region copies"},
    {"engineering", "engineering"},
    {"reruns.failed_runs", "reruns of failed runs"},
    {"incidents.lost_day", "incidents: lost days"},
    {"incidents.oom", "incidents: out-of-memory restarts"},
    {"incidents.throughput_regression", "incidents: throughput regressions"},
    {"owned.depreciation", "owned cluster: depreciation"},
    {"owned.financing", "owned cluster: financing"},
    {"owned.maintenance", "owned cluster: maintenance"},
    {"owned.energy", "owned cluster: energy"},
    {"owned.colocation", "owned cluster: colocation"},
    {"owned.facility", "owned cluster: facility"},
    {"owned.staff", "owned cluster: staff"},
    // What a claim implies (ClaimCheck::implied, claims.cpp).
    {"bill_at_claimed_rate_usd", "bill at the claimed rate"},
    {"bill_at_list_price_usd", "bill at today's list price"},
    {"claimed_mfu", "claimed MFU"},
    {"claimed_usd_per_hour", "claimed rate per instance-hour"},
    {"compute_floor_usd", "least compute cost at dense peak"},
    {"estimated_usd_per_run", "estimated cost of a run"},
    {"estimated_wall_time_s", "estimated wall time"},
    {"implied_gb_per_s_per_rank", "implied GB/s per rank"},
    {"implied_mfu", "implied MFU"},
    {"implied_usd_per_instance_hour", "implied rate per instance-hour"},
    {"list_usd_per_hour", "list rate per instance-hour"},
};

// "pricing.mix[2].tier" -> "pricing mix, entry 3, tier"; false when `id` is no mix path.
bool mix_path(const std::string& id, std::string& out) {
  const std::string head = "pricing.mix[";
  if (id.rfind(head, 0) != 0) return false;
  char* end = nullptr;
  const unsigned long i = std::strtoul(id.c_str() + head.size(), &end, 10);
  if (end == id.c_str() + head.size() || *end != ']') return false;
  out = "pricing mix, entry " + std::to_string(i + 1);
  const std::string rest = end + 1;
  if (rest.size() > 1 && rest[0] == '.') out += ", " + plain_label(rest.substr(1));
  return true;
}

// The fallback: underscores and dots become spaces, brackets are dropped.
std::string unpunctuated(const std::string& id) {
  std::string s;
  for (char c : id) {
    if (c == '_' || c == '.') {
      if (!s.empty() && s.back() != ' ') s += ' ';
    } else if (c != '[' && c != ']') {
      s += c;
    }
  }
  return s;
}

}  // namespace

std::string plain_label(const std::string& id) {
  for (const auto& [key, label] : kLabels)
    if (id == key) return label;
  // instance.<tier> and instance.<tier>.idle: the tier as AWS names it (core/commitments).
  // (instance.<field> of a scenario, like instance.inter_node_gbps, is no tier: the fallback.)
  const std::string inst = "instance.";
  if (id.rfind(inst, 0) == 0) {
    std::string tier = id.substr(inst.size());
    const std::string idle = ".idle";
    const bool is_idle = tier.size() > idle.size() && tier.compare(tier.size() - idle.size(), idle.size(), idle) == 0;
    if (is_idle) tier.resize(tier.size() - idle.size());
    const auto t = parse_tier(tier);
    if (t) {
      const std::string words = describe_tier(*t);
      if (!is_idle) return words;
      // A Capacity Block is bought in whole offered durations: what the job leaves is its tail.
      return words + (t->kind == TierKind::capacity_block ? ", unused tail" : ", paid and not used");
    }
  }
  if (std::string m; mix_path(id, m)) return m;
  return unpunctuated(id);
}

std::string mix_entries_label(const std::vector<std::size_t>& entries) {
  std::string s;
  for (std::size_t k = 0; k < entries.size(); ++k)
    s += (k == 0 ? "" : k + 1 == entries.size() ? " and " : ", ") + std::to_string(entries[k] + 1);
  return (entries.size() > 1 ? "pricing mix, entries " : "pricing mix, entry ") + s;
}

}  // namespace tc
