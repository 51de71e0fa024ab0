// Cost sections of a scenario <-> tc::CostInputs / tc::Claim, and cost results as JSON.
#include "io/cost_json.hpp"

#include <algorithm>
#include <cmath>

#include "core/commitments.hpp"
#include "io/schema.hpp"

namespace tc::io {
namespace {

// A field read with its key and range from its row of the schema table (io/schema.cpp), so that
// the reader, the link codec and docs/scenario-fields.md cannot disagree on a bound. `path` is the
// row's ("overheads.storage.dataset_gb", "incidents[].hours"); `at` the path of the object read
// ("overheads.storage", "incidents[2]").
struct Row {
  const FieldDef& def;
  std::string key;
};
Row row(std::string_view path) { return {scenario_field(path), std::string(path.substr(path.rfind('.') + 1))}; }

double num(const Json& obj, const std::string& at, std::string_view path) {
  const Row r = row(path);
  return check_zero_or_at_least(get_number(obj, r.key, at, r.def.min, r.def.max), path_key(at, r.key),
                                r.def.min_positive);
}
double num_or(const Json& obj, const std::string& at, std::string_view path, double fallback) {
  return has_key(obj, row(path).key) ? num(obj, at, path) : fallback;
}
std::optional<double> opt_num(const Json& obj, const std::string& at, std::string_view path) {
  if (!has_key(obj, row(path).key)) return std::nullopt;
  return num(obj, at, path);
}
int int_or(const Json& obj, const std::string& at, std::string_view path, int fallback) {
  const Row r = row(path);
  return get_int_or(obj, r.key, at, static_cast<int>(r.def.min), static_cast<int>(r.def.max), fallback);
}
int int_of(const Json& obj, const std::string& at, std::string_view path) {
  const Row r = row(path);
  return get_int(obj, r.key, at, static_cast<int>(r.def.min), static_cast<int>(r.def.max));
}
std::string enum_of(const Json& obj, const std::string& at, std::string_view path) {
  const Row r = row(path);
  return get_enum(obj, r.key, at, r.def.values);
}

const Json* section(const Json& doc, std::string_view key, const std::string& path) {
  if (!doc.is_object() || !has_key(doc, key)) return nullptr;
  const Json& s = doc.at(std::string(key));
  require_object(s, path_key(path, key));
  return &s;
}

std::string tier_value(const Json& obj, std::string_view key, const std::string& path, bool allow_custom) {
  const std::string t = get_string(obj, key, path);
  const auto name = parse_tier(t);
  if (name && (allow_custom || name->kind != TierKind::custom)) return t;
  std::vector<std::string> known = tier_names(false);
  if (!allow_custom) known.pop_back();  // "custom" is last
  throw InputError(path_key(path, key), unknown_id_message("tier", t, known));
}

TierShare read_share(const Json& e, const std::string& path) {
  check_keys(e, path, {"tier", "fraction", "instances", "fallback", "usd_per_hour", "discount"});
  TierShare t;
  t.tier = tier_value(e, "tier", path, true);
  if (has_key(e, "fraction")) t.fraction = get_number(e, "fraction", path, 0, 1);
  if (has_key(e, "instances")) t.instances = get_int(e, "instances", path, 0, 1000000);
  if (has_key(e, "fallback")) t.fallback = tier_value(e, "fallback", path, false);
  t.usd_per_hour = opt_num(e, path, "pricing.usd_per_hour");
  if (has_key(e, "discount")) {
    const double d = num(e, path, "pricing.discount");
    if (!(d < 1)) throw InputError(path_key(path, "discount"), "must be < 1 (got 1)");
    t.discount = d;
  }
  if (t.tier == "custom" && !t.usd_per_hour && !t.discount)
    throw InputError(path, "tier custom needs usd_per_hour or discount");
  return t;
}

void read_regions(PricingInputs& pr, const Json& p) {
  if (has_key(p, "region")) {
    pr.region = region_value(p.at("region"), "pricing.region");
    pr.region_given = true;
  }
  if (has_key(p, "instance_regions")) {
    const Json& m = get_object(p, "instance_regions", "pricing");
    if (m.size() > 64) throw InputError("pricing.instance_regions", "more than 64 instances");
    for (auto it = m.begin(); it != m.end(); ++it)
      pr.instance_regions.push_back({it.key(), region_value(it.value(), "pricing.instance_regions." + shown_key(it.key()))});
  }
  if (has_key(p, "idle_commitment"))
    pr.idle_commitment = get_enum(p, "idle_commitment", "pricing", {"bill", "share"}) == "share" ? IdleCommitment::share
                                                                                              : IdleCommitment::bill;
}

void read_pricing(CostInputs& in, const Json& doc) {
  const Json* p = section(doc, "pricing", "");
  if (!p) return;
  const std::string path = "pricing";
  check_keys(*p, path, {"tier", "fallback", "usd_per_hour", "discount", "mix", "spot_discount", "region",
                        "instance_regions", "idle_commitment"});
  read_regions(in.pricing, *p);
  if (has_key(*p, "spot_discount")) {
    const double d = num(*p, path, "pricing.spot_discount");
    if (!(d < 1)) throw InputError("pricing.spot_discount", "must be < 1 (got 1)");
    in.pricing.spot_discount = d;
  }
  const bool one = has_key(*p, "tier");
  const bool mix = has_key(*p, "mix");
  if (one && mix) throw InputError("pricing", "give either tier or mix, not both");
  if (one) {
    Json e = Json::object();
    for (const char* k : {"tier", "fallback", "usd_per_hour", "discount"})
      if (has_key(*p, k)) e[k] = p->at(k);
    TierShare t = read_share(e, path);
    t.fraction = 1;
    in.pricing.mix_by = MixBy::fraction;
    in.pricing.mix = {t};
    return;
  }
  for (const char* k : {"fallback", "usd_per_hour", "discount"})
    if (has_key(*p, k)) throw InputError(path_key(path, k), "belongs to a tier: use it with \"tier\" or inside a mix entry");
  if (!mix) return;
  const Json& arr = get_array(*p, "mix", path, 64);
  if (arr.empty()) throw InputError("pricing.mix", "needs at least one tier");
  in.pricing.mix.clear();
  int by_fraction = 0, by_instances = 0;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string ip = path_index("pricing.mix", i);
    require_object(arr[i], ip);
    const bool f = has_key(arr[i], "fraction"), n = has_key(arr[i], "instances");
    if (f == n) throw InputError(ip, "give either fraction (share of instance-hours) or instances (count)");
    by_fraction += f;
    by_instances += n;
    if (by_fraction && by_instances)
      throw InputError(ip, "mixes fractions and instance counts; use one kind for every entry");
    in.pricing.mix.push_back(read_share(arr[i], ip));
  }
  in.pricing.mix_by = by_instances ? MixBy::instances : MixBy::fraction;
}

// Storage by service; retention in days (retention_months, the older field, still reads: one
// month = 730 h, the AWS pricing convention). Ceilings beyond the reader's are in core validate().
void read_storage(StorageInputs& x, const Json& s) {
  const std::string sp = "overheads.storage";
  check_keys(s, sp, {"usd_per_gb_month", "dataset_gb", "retention_days", "retention_months", "checkpoints_service",
                     "dataset_service", "fsx_tier", "fsx_capacity_tib"});
  x.usd_per_gb_month = opt_num(s, sp, "overheads.storage.usd_per_gb_month");
  x.dataset_gb = num_or(s, sp, "overheads.storage.dataset_gb", x.dataset_gb);
  if (has_key(s, "retention_days") && has_key(s, "retention_months"))
    throw InputError(path_key(sp, "retention_months"), "give retention_days or retention_months, not both");
  x.retention_days = num_or(s, sp, "overheads.storage.retention_days", x.retention_days);
  if (has_key(s, "retention_months")) x.retention_days = num(s, sp, "overheads.storage.retention_months") * 730.0 / 24.0;
  if (has_key(s, "checkpoints_service")) x.checkpoints_service = enum_of(s, sp, "overheads.storage.checkpoints_service");
  if (has_key(s, "dataset_service")) x.dataset_service = enum_of(s, sp, "overheads.storage.dataset_service");
  if (has_key(s, "fsx_tier")) x.fsx_tier = enum_of(s, sp, "overheads.storage.fsx_tier");
  x.fsx_capacity_tib = opt_num(s, sp, "overheads.storage.fsx_capacity_tib");
}

void read_transfer(TransferInputs& x, const Json& t) {
  const std::string tp = "overheads.transfer";
  check_keys(t, tp, {"cross_region_copies", "copy_gb", "copy_from_region", "copy_to_region",
                     "cross_region_usd_per_gb", "egress_gb", "egress_gb_per_month", "egress_usd_per_gb"});
  x.cross_region_copies = num_or(t, tp, "overheads.transfer.cross_region_copies", x.cross_region_copies);
  x.copy_gb = opt_num(t, tp, "overheads.transfer.copy_gb");
  x.copy_from_region = get_string_or(t, "copy_from_region", tp, x.copy_from_region);
  x.copy_to_region = get_string_or(t, "copy_to_region", tp, x.copy_to_region);
  x.cross_region_usd_per_gb = opt_num(t, tp, "overheads.transfer.cross_region_usd_per_gb");
  x.egress_gb = num_or(t, tp, "overheads.transfer.egress_gb", x.egress_gb);
  x.egress_gb_per_month = num_or(t, tp, "overheads.transfer.egress_gb_per_month", x.egress_gb_per_month);
  x.egress_usd_per_gb = opt_num(t, tp, "overheads.transfer.egress_usd_per_gb");
}

// "incidents": [{"kind": "oom", "hours": 4, "note": "A39"}, {"kind": "lost_day", "days": 2},
//   {"kind": "throughput_regression", "fraction": 0.3, "days": 3},
//   {"kind": "failed_runs", "fraction": 0.1, "progress": 0.5}]
void read_incidents(CostInputs& in, const Json& doc) {
  if (!doc.is_object() || !has_key(doc, "incidents")) return;
  const Json& arr = get_array(doc, "incidents", "", 100);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string p = path_index("incidents", i);
    require_object(arr[i], p);
    Incident x;
    const std::string kind = enum_of(arr[i], p, "incidents[].kind");
    x.kind = kind == "lost_day" ? IncidentKind::lost_day
             : kind == "oom"    ? IncidentKind::oom
             : kind == "throughput_regression" ? IncidentKind::throughput_regression
                                               : IncidentKind::failed_runs;
    switch (x.kind) {
      case IncidentKind::lost_day:
        check_keys(arr[i], p, {"kind", "days", "note"});
        x.days = num_or(arr[i], p, "incidents[].days", 1);
        break;
      case IncidentKind::oom:
        check_keys(arr[i], p, {"kind", "hours", "note"});
        x.hours = num(arr[i], p, "incidents[].hours");
        break;
      case IncidentKind::throughput_regression:
        check_keys(arr[i], p, {"kind", "fraction", "days", "note"});
        x.fraction = num(arr[i], p, "incidents[].fraction");
        x.days = num(arr[i], p, "incidents[].days");
        break;
      case IncidentKind::failed_runs:
        check_keys(arr[i], p, {"kind", "fraction", "progress", "note"});
        x.fraction = num(arr[i], p, "incidents[].fraction");
        x.progress = num_or(arr[i], p, "incidents[].progress", 1);
        break;
    }
    x.note = get_string_or(arr[i], "note", p, "", kMaxTextLength);
    in.incidents.push_back(x);
  }
}

void read_overheads(CostInputs& in, const Json& doc) {
  const Json* o = section(doc, "overheads", "");
  if (!o) return;
  const std::string path = "overheads";
  check_keys(*o, path, {"compile", "warmup", "checkpoint", "failures", "spot", "queue_hours", "storage",
                        "transfer", "engineering"});
  in.queue_hours = num_or(*o, path, "overheads.queue_hours", in.queue_hours);
  if (const Json* c = section(*o, "compile", path)) {
    const std::string cp = "overheads.compile";
    check_keys(*c, cp, {"first_s", "recompile_s", "shapes", "cache_hit"});
    in.compile.first_s = opt_num(*c, cp, "overheads.compile.first_s");
    in.compile.recompile_s = opt_num(*c, cp, "overheads.compile.recompile_s");
    in.compile.shapes = int_or(*c, cp, "overheads.compile.shapes", in.compile.shapes);
    in.compile.cache_hit = num_or(*c, cp, "overheads.compile.cache_hit", in.compile.cache_hit);
  }
  if (const Json* w = section(*o, "warmup", path)) {
    const std::string wp = "overheads.warmup";
    check_keys(*w, wp, {"minutes", "throughput"});
    in.warmup.minutes = opt_num(*w, wp, "overheads.warmup.minutes");
    in.warmup.throughput = opt_num(*w, wp, "overheads.warmup.throughput");
  }
  if (const Json* c = section(*o, "checkpoint", path)) {
    const std::string cp = "overheads.checkpoint";
    check_keys(*c, cp, {"interval_min", "write_gb_per_s", "bytes", "kept"});
    if (has_key(*c, "interval_min")) {
      const Json& v = c->at("interval_min");
      if (v.is_string()) {
        if (v.get<std::string>() != "auto")
          throw InputError("overheads.checkpoint.interval_min", "must be a number of minutes or \"auto\" (got " +
                                                                    describe_value(v) + ")");
      } else {
        const FieldDef& d = scenario_field("overheads.checkpoint.interval_min");
        in.checkpoint.interval_min = to_number(v, "overheads.checkpoint.interval_min", d.min, d.max);
      }
    }
    in.checkpoint.write_gb_per_s = opt_num(*c, cp, "overheads.checkpoint.write_gb_per_s");
    in.checkpoint.bytes_override = num_or(*c, cp, "overheads.checkpoint.bytes", 0);
    in.checkpoint.kept = int_or(*c, cp, "overheads.checkpoint.kept", in.checkpoint.kept);
  }
  if (const Json* f = section(*o, "failures", path)) {
    const std::string fp = "overheads.failures";
    check_keys(*f, fp, {"per_node_hour", "restart_min"});
    in.failures.per_node_hour = num_or(*f, fp, "overheads.failures.per_node_hour", in.failures.per_node_hour);
    in.failures.restart_min = num_or(*f, fp, "overheads.failures.restart_min", in.failures.restart_min);
  }
  if (const Json* s = section(*o, "spot", path)) {
    const std::string sp = "overheads.spot";
    check_keys(*s, sp, {"interruptions_per_hour", "restart_min"});
    in.spot.interruptions_per_hour = opt_num(*s, sp, "overheads.spot.interruptions_per_hour");
    in.spot.restart_min = num_or(*s, sp, "overheads.spot.restart_min", in.spot.restart_min);
  }
  if (const Json* s = section(*o, "storage", path)) read_storage(in.storage, *s);
  if (const Json* t = section(*o, "transfer", path)) read_transfer(in.transfer, *t);
  if (const Json* e = section(*o, "engineering", path)) {
    const std::string ep = "overheads.engineering";
    check_keys(*e, ep, {"person_weeks", "usd_per_week", "spread_runs"});
    in.engineering.person_weeks = num_or(*e, ep, "overheads.engineering.person_weeks", 0);
    in.engineering.usd_per_week = num_or(*e, ep, "overheads.engineering.usd_per_week", 0);
    in.engineering.spread_runs = num_or(*e, ep, "overheads.engineering.spread_runs", 0);
  }
}

void read_campaign(CostInputs& in, const Json& doc) {
  const Json* c = section(doc, "campaign", "");
  if (!c) return;
  const std::string p = "campaign";
  check_keys(*c, p, {"runs", "full_runs", "truncated_fraction", "runs_per_month"});
  in.campaign.runs = num_or(*c, p, "campaign.runs", in.campaign.runs);
  in.campaign.full_runs = opt_num(*c, p, "campaign.full_runs");
  in.campaign.truncated_fraction = num_or(*c, p, "campaign.truncated_fraction", in.campaign.truncated_fraction);
  in.campaign.runs_per_month = num_or(*c, p, "campaign.runs_per_month", 0);
}

void read_owned(CostInputs& in, const Json& doc) {
  const Json* o = section(doc, "owned_cluster", "");
  if (!o) return;
  const std::string p = "owned_cluster";
  check_keys(*o, p, {"instance", "nodes", "capex_usd_per_node", "depreciation_years", "residual_fraction",
                     "financing_rate", "financing_years", "maintenance_usd_per_year", "maintenance_fraction_per_year",
                     "colocation_usd_per_kw_month", "utilization", "node_power_w", "idle_power_fraction", "pue",
                     "usd_per_kwh", "facility_usd_per_year", "staff_usd_per_year", "horizon_years"});
  OwnedClusterInputs& x = in.owned;
  x.enabled = true;
  x.instance_id = get_string_or(*o, "instance", p, "");
  x.nodes = int_or(*o, p, "owned_cluster.nodes", 0);
  x.capex_usd_per_node = num(*o, p, "owned_cluster.capex_usd_per_node");
  x.depreciation_years = num_or(*o, p, "owned_cluster.depreciation_years", x.depreciation_years);
  x.residual_fraction = num_or(*o, p, "owned_cluster.residual_fraction", x.residual_fraction);
  x.financing_rate = num_or(*o, p, "owned_cluster.financing_rate", x.financing_rate);
  x.financing_years = opt_num(*o, p, "owned_cluster.financing_years");
  x.maintenance_usd_per_year = num_or(*o, p, "owned_cluster.maintenance_usd_per_year", 0);
  x.maintenance_fraction_per_year = num_or(*o, p, "owned_cluster.maintenance_fraction_per_year", 0);
  x.colocation_usd_per_kw_month = num_or(*o, p, "owned_cluster.colocation_usd_per_kw_month", 0);
  x.utilization = num_or(*o, p, "owned_cluster.utilization", x.utilization);
  x.node_power_w = opt_num(*o, p, "owned_cluster.node_power_w");
  x.idle_power_fraction = num_or(*o, p, "owned_cluster.idle_power_fraction", x.idle_power_fraction);
  x.pue = num_or(*o, p, "owned_cluster.pue", x.pue);
  x.usd_per_kwh = opt_num(*o, p, "owned_cluster.usd_per_kwh");
  x.facility_usd_per_year = num_or(*o, p, "owned_cluster.facility_usd_per_year", 0);
  x.staff_usd_per_year = num_or(*o, p, "owned_cluster.staff_usd_per_year", 0);
  x.horizon_years = num_or(*o, p, "owned_cluster.horizon_years", x.horizon_years);
}

void read_energy(CostInputs& in, const Json& doc) {
  const Json* e = section(doc, "energy", "");
  if (!e) return;
  const std::string p = "energy";
  check_keys(*e, p, {"usd_per_kwh", "grid_kg_co2e_per_kwh", "cloud_pue", "node_power_w"});
  in.energy.usd_per_kwh = num_or(*e, p, "energy.usd_per_kwh", in.energy.usd_per_kwh);
  in.energy.grid_kg_co2e_per_kwh = num_or(*e, p, "energy.grid_kg_co2e_per_kwh", in.energy.grid_kg_co2e_per_kwh);
  in.energy.cloud_pue = num_or(*e, p, "energy.cloud_pue", in.energy.cloud_pue);
  in.energy.node_power_w = opt_num(*e, p, "energy.node_power_w");
}

Json number_or_null(double v, bool known) { return known && std::isfinite(v) ? Json(v) : Json(nullptr); }

Json terms_json(const std::vector<NamedTerm>& terms) {
  Json j = Json::object();
  for (const auto& t : terms) j[t.name] = t.value;
  return j;
}

Json implied_json(const std::vector<NamedTerm>& terms) {
  Json j = Json::object();
  for (const auto& t : terms)
    if (std::isfinite(t.value)) j[t.name] = t.value;
  return j;
}

}  // namespace

CostInputs parse_cost_inputs(const Json& doc) {
  CostInputs in;
  read_pricing(in, doc);
  read_overheads(in, doc);
  read_campaign(in, doc);
  read_owned(in, doc);
  read_energy(in, doc);
  read_incidents(in, doc);
  if (doc.is_object()) in.deadline_days = opt_num(doc, "", "deadline_days");
  if (doc.is_object() && has_key(doc, "baseline_instance"))
    in.baseline_instance = get_string(doc, "baseline_instance", "");
  for (const auto& p : validate(in)) throw InputError(p.field, p.reason);
  return in;
}

namespace {
// A claim's id: the report's number, one to three capital letters then a number without a leading
// zero ("A12", as seed-cases.md numbers them), unique within the file. Optional for a user's claim.
std::string claim_id(const Json& e, const std::string& p, const Json& arr, std::size_t i) {
  const std::string id = get_string_or(e, "id", p, "", 16);
  if (id.empty() && !has_key(e, "id")) return id;
  std::size_t letters = 0;
  while (letters < id.size() && id[letters] >= 'A' && id[letters] <= 'Z') ++letters;
  bool digits = letters < id.size() && id[letters] != '0';
  for (std::size_t k = letters; k < id.size(); ++k) digits = digits && id[k] >= '0' && id[k] <= '9';
  if (letters < 1 || letters > 3 || !digits)
    throw InputError(path_key(p, "id"), "'" + id + "' is not a claim id (capital letters then a number, e.g. A12)");
  for (std::size_t j = 0; j < i; ++j)
    if (arr[j].is_object() && arr[j].contains("id") && arr[j]["id"] == id)
      throw InputError(path_key(p, "id"), "duplicate claim id '" + id + "' (also " + path_index("claims", j) + ".id)");
  return id;
}

// The checkable figures of one claim or of one part of it.
Claim parse_claim_figures(const Json& e, const std::string& p) {
  Claim c;
  c.text = get_string_or(e, "text", p, "", kMaxTextLength);
  c.reason = get_string_or(e, "reason", p, "", kMaxTextLength);
  c.runs = num_or(e, p, "claims[].runs", 1);
  c.instance_id = get_string_or(e, "instance", p, "");
  if (has_key(e, "other_workload")) c.other_workload = get_bool(e, "other_workload", p);
  if (has_key(e, "nodes")) c.nodes = int_of(e, p, "claims[].nodes");
  int times = 0;
  if (has_key(e, "wall_time_s")) c.wall_time_s = num(e, p, "claims[].wall_time_s"), ++times;
  if (has_key(e, "wall_time_hours")) c.wall_time_s = num(e, p, "claims[].wall_time_hours") * 3600.0, ++times;
  if (has_key(e, "wall_time_days")) c.wall_time_s = num(e, p, "claims[].wall_time_days") * 86400.0, ++times;
  if (times > 1) throw InputError(p, "give one of wall_time_s, wall_time_hours, wall_time_days");
  c.bill_usd = opt_num(e, p, "claims[].bill_usd");
  c.bill_other_usd = num_or(e, p, "claims[].bill_other_usd", 0);
  if (c.bill_usd && c.bill_other_usd > *c.bill_usd)
    throw InputError(path_key(p, "bill_other_usd"), "exceeds bill_usd");
  c.usd_per_hour = opt_num(e, p, "claims[].usd_per_hour");
  if (has_key(e, "tier")) c.tier = tier_value(e, "tier", p, false);
  c.tflops_per_chip = opt_num(e, p, "claims[].tflops_per_chip");
  c.peak_tflops = opt_num(e, p, "claims[].peak_tflops");
  c.mfu = opt_num(e, p, "claims[].mfu");
  c.tokens_per_s = opt_num(e, p, "claims[].tokens_per_s");
  c.training_flops = opt_num(e, p, "claims[].training_flops");
  if (has_key(e, "chips_per_node")) c.chips_per_node = int_of(e, p, "claims[].chips_per_node");
  c.hbm_gb_per_chip = opt_num(e, p, "claims[].hbm_gb_per_chip");
  c.hbm_gb_per_node = opt_num(e, p, "claims[].hbm_gb_per_node");
  c.hbm_tb_per_s = opt_num(e, p, "claims[].hbm_tb_per_s");
  c.link_gb_per_s = opt_num(e, p, "claims[].link_gb_per_s");
  c.network_gbps = opt_num(e, p, "claims[].network_gbps");
  if (has_key(e, "collective")) {
    const std::string cp = path_key(p, "collective");
    const Json& col = e.at("collective");
    check_keys(col, cp, {"bytes", "time_s", "ranks"});
    c.collective_bytes = num(col, cp, "claims[].collective.bytes");
    c.collective_time_s = num(col, cp, "claims[].collective.time_s");
    c.collective_ranks = int_or(col, cp, "claims[].collective.ranks", 2);
  }
  return c;
}

// A claim of several figures (three plans, two prices): each part is checked as a claim. What the
// claim states for all of them (instance, nodes, a wall time, a tier) is its parts' default; the
// claim itself carries no figure of its own.
Claim parse_claim_with_parts(const Json& e, const std::string& p, const std::vector<std::string_view>& figures) {
  static const std::vector<std::string> kShared = {"instance", "nodes", "other_workload", "tier", "runs",
                                                   "wall_time_s", "wall_time_hours", "wall_time_days"};
  Json shared = Json::object();
  for (auto it = e.begin(); it != e.end(); ++it) {
    const std::string& k = it.key();
    if (k == "id" || k == "text" || k == "reason" || k == "parts") continue;
    if (std::find(kShared.begin(), kShared.end(), k) == kShared.end())
      throw InputError(path_key(p, k), "a claim with parts gives its figures in the parts");
    shared[k] = it.value();
  }
  parse_claim_figures(shared, p);  // the shared fields, validated where they are written
  Claim c;
  c.instance_id = get_string_or(e, "instance", p, "");
  c.text = get_string_or(e, "text", p, "", kMaxTextLength);
  c.reason = get_string_or(e, "reason", p, "", kMaxTextLength);
  const Json& parts = get_array(e, "parts", p, 16);
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const std::string pp = path_index(path_key(p, "parts"), k);
    check_keys(parts[k], pp, figures);
    Json merged = shared;
    const bool own_time = has_key(parts[k], "wall_time_s") || has_key(parts[k], "wall_time_hours") ||
                          has_key(parts[k], "wall_time_days");
    if (own_time)
      for (const char* t : {"wall_time_s", "wall_time_hours", "wall_time_days"}) merged.erase(t);
    for (auto it = parts[k].begin(); it != parts[k].end(); ++it) merged[it.key()] = it.value();
    c.parts.push_back(parse_claim_figures(merged, pp));
  }
  return c;
}

}  // namespace

std::vector<Claim> parse_claims(const Json& doc) {
  static const std::vector<std::string_view> kFigures = {
      "text", "reason", "runs", "instance", "other_workload", "nodes", "wall_time_s", "wall_time_hours", "wall_time_days",
      "bill_usd", "bill_other_usd", "usd_per_hour", "tier", "tflops_per_chip", "peak_tflops",
      "mfu", "tokens_per_s", "training_flops", "collective", "chips_per_node", "hbm_gb_per_chip",
      "hbm_gb_per_node", "hbm_tb_per_s", "link_gb_per_s", "network_gbps"};
  std::vector<std::string_view> top = kFigures;
  top.push_back("id");
  top.push_back("parts");
  std::vector<Claim> v;
  if (!doc.is_object() || !has_key(doc, "claims")) return v;
  const Json& arr = get_array(doc, "claims", "", 200);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string p = path_index("claims", i);
    const Json& e = arr[i];
    check_keys(e, p, top);
    Claim c = has_key(e, "parts") ? parse_claim_with_parts(e, p, kFigures) : parse_claim_figures(e, p);
    c.id = claim_id(e, p, arr, i);
    v.push_back(c);
  }
  return v;
}

Json wall_time_json(const WallTime& w) {
  Json j = Json::object();
  j["total"] = w.total_s;
  for (const auto& t : w.terms) j[t.name] = t.value;
  return j;
}

Json cost_usd_json(const Bill& b) {
  Json j = Json::object();
  j["total"] = b.priced ? Json(b.total_usd) : Json(nullptr);
  for (const auto& t : b.items_usd) j[t.name] = t.value;
  return j;
}

Json bill_json(const Bill& b) {
  Json j = Json::object();
  j["kind"] = b.kind;
  j["instance"] = b.instance_id;
  j["region"] = b.region;
  j["priced"] = b.priced;
  j["unpriced"] = b.unpriced;
  j["total_usd"] = b.priced ? Json(b.total_usd) : Json(nullptr);
  j["priced_part_usd"] = b.total_usd;
  j["items_usd"] = terms_json(b.items_usd);
  Json lines = Json::array();
  for (const auto& l : b.lines)
    lines.push_back({{"item", l.item}, {"quantity", l.quantity}, {"unit", l.unit},
                     {"usd_per_unit", l.usd_per_unit}, {"usd", l.usd}, {"detail", l.detail}});
  j["lines"] = lines;
  if (b.kind == "cloud") {
    Json tiers = Json::array();
    for (const auto& t : b.tiers) {
      Json x = {{"tier", t.tier},           {"billed_tier", t.billed_tier}, {"share", t.share},
                {"instance_hours", t.instance_hours}, {"priced", t.priced}};
      x["usd_per_hour"] = number_or_null(t.usd_per_hour, t.priced);
      x["usd"] = number_or_null(t.usd, t.priced);
      x["region"] = t.region;
      x["date"] = t.date;
      x["source"] = t.source;
      if (t.paid_instance_hours > 0) {
        x["commitment"] = t.commitment;
        x["paid_instance_hours"] = t.paid_instance_hours;
        x["committed_usd"] = t.committed_usd;
        x["idle_usd"] = t.idle_usd;
      }
      if (t.billed_tier == "spot" && t.priced)
        x["break_even_interruptions_per_hour"] = t.break_even_interruptions_per_hour;
      tiers.push_back(x);
    }
    j["tiers"] = tiers;
    j["instance_hours"] = b.instance_hours;
  } else {
    j["node_hours"] = b.instance_hours;
    j["usd_per_year"] = b.usd_per_year;
    j["tco_usd_horizon"] = b.tco_usd_horizon;
    j["usd_per_node_hour"] = b.usd_per_node_hour;
    j["tco_usd_by_item"] = terms_json(b.tco_usd_by_item);
    j["break_even_utilization"] = b.break_even_utilization ? Json(*b.break_even_utilization) : Json(nullptr);
    j["break_even_note"] = b.break_even_note;
  }
  j["compute_usd_by_term"] = terms_json(b.instance_usd_by_term);
  j["runs"] = b.runs;
  j["run_equivalents"] = b.run_equivalents;
  j["tokens"] = b.tokens;
  j["campaign_months"] = b.campaign_months;
  j["usd_per_run"] = number_or_null(b.usd_per_run, b.priced);
  j["usd_per_month"] = number_or_null(b.usd_per_month, b.priced);
  j["usd_per_million_tokens"] = number_or_null(b.usd_per_million_tokens, b.priced && b.tokens > 0);
  j["compute_usd_per_million_tokens"] = number_or_null(b.compute_usd_per_million_tokens, b.priced && b.tokens > 0);
  j["compute_only_bound_usd"] = b.compute_only_bound_usd;
  j["engineering_usd"] = b.engineering_usd;
  j["node_power_w"] = number_or_null(b.node_power_w, b.energy_known);
  j["energy_kwh"] = number_or_null(b.energy_kwh, b.energy_known);
  j["co2e_kg"] = number_or_null(b.co2e_kg, b.energy_known);
  j["notes"] = b.notes;
  j["warnings"] = b.warnings;
  return j;
}

Json claims_json(const std::vector<ClaimCheck>& claims) {
  Json arr = Json::array();
  for (const auto& c : claims) {
    Json j = Json::object();
    j["id"] = c.id;
    j["text"] = c.text;
    j["instance"] = c.instance_id;
    j["verdict"] = to_string(c.verdict);
    j["reasons"] = c.reasons;
    j["implied"] = implied_json(c.implied);
    arr.push_back(j);
  }
  return arr;
}

Json baseline_json(const BaselineComparison& c) {
  Json j = Json::object();
  j["instance"] = c.baseline_instance;
  j["priced"] = c.priced;
  j["baseline_usd_per_run"] = number_or_null(c.baseline_usd_per_run, c.priced);
  j["usd_per_run"] = number_or_null(c.usd_per_run, c.priced);
  j["saving_usd_per_run"] = number_or_null(c.saving_usd_per_run, c.priced);
  j["saving_fraction"] = number_or_null(c.saving_fraction, c.priced);
  j["saving_usd_per_month"] = number_or_null(c.saving_usd_per_month, c.priced);
  j["engineering_usd"] = c.engineering_usd;
  j["payback_months"] = c.payback_months && c.priced ? Json(*c.payback_months) : Json(nullptr);
  return j;
}

void add_cost_json(Json& result, const CostReport& r) {
  const CostResult& c = r.result;
  const Bill& b = c.bill;
  result["wall_time_s"] = wall_time_json(c.wall);
  result["cost_usd"] = cost_usd_json(b);
  result["usd_per_million_tokens"] = number_or_null(b.usd_per_million_tokens, b.priced && b.tokens > 0);
  result["energy_kwh"] = number_or_null(b.energy_kwh, b.energy_known);
  result["co2e_kg"] = number_or_null(b.co2e_kg, b.energy_known);
  Json bill = bill_json(b);
  bill["checkpoint_interval_s"] = c.wall.checkpoint_interval_s;
  bill["checkpoint_write_s"] = c.wall.checkpoint_write_s;
  bill["expected_failures_per_run"] = c.wall.expected_failures;
  bill["expected_spot_interruptions_per_run"] = c.wall.expected_spot_interruptions;
  result["bill"] = bill;
  if (c.owned) {
    Json o = bill_json(*c.owned);
    if (c.owned_wall) o["wall_time_s"] = wall_time_json(*c.owned_wall);
    o["cost_usd"] = cost_usd_json(*c.owned);
    result["owned"] = o;
  }
  if (c.deadline) {
    result["deadline"] = {{"deadline_days", c.deadline->deadline_s / 86400.0},
                          {"wall_days", c.deadline->wall_s / 86400.0},
                          {"meets", c.deadline->meets},
                          {"margin_days", c.deadline->margin_s / 86400.0}};
  }
  if (r.baseline) result["baseline"] = baseline_json(*r.baseline);
  if (!r.claims.empty()) {
    result["claims"] = claims_json(r.claims);
    const VerdictCounts n = count_verdicts(r.claims);
    result["claim_verdicts"] = {{"ok", n.ok}, {"implausible", n.implausible}, {"impossible", n.impossible},
                                {"unchecked", n.unchecked}};
  }
  if (!result.contains("warnings") || !result["warnings"].is_array()) result["warnings"] = Json::array();
  for (const auto& w : c.warnings) result["warnings"].push_back(w);
}

}  // namespace tc::io
