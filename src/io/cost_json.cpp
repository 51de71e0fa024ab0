// Cost sections of a scenario <-> tc::CostInputs / tc::Claim, and cost results as JSON.
#include "io/cost_json.hpp"

#include <algorithm>
#include <cmath>

#include "core/commitments.hpp"
#include "io/schema.hpp"

namespace tc::io {
namespace {

constexpr double kBig = 1e15;        // money, sizes, counts: anything larger is a typo
constexpr double kHuge = 1e35;       // FLOPs, bytes
// Bounds of the cost fields (docs/reliability.md lists them). A maximum is far beyond any real
// campaign; a minimum keeps what the cost model divides by (an interval, a bandwidth, a share, a
// number of years or runs) from making a bill overflow: 1e-300 runs per month is 1e300 months.
constexpr double kMaxUsd = 1e12;           // a price, a salary, a capex per node
constexpr double kMaxUsdPerUnit = 1e4;     // per GB, per GB-month, per kWh
constexpr double kMaxGb = 1e12;            // a dataset or a transfer (an exabyte)
constexpr double kMaxMinutes = 1e7;        // about 19 years
constexpr double kMaxSeconds = 1e9;        // about 32 years
constexpr double kMaxRuns = 1e6;
constexpr double kMinRuns = 1e-3;
constexpr double kMinIntervalMin = 1.0 / 60;  // one second between checkpoints
constexpr double kMinWriteGBps = 1e-3;        // 1 MB/s
constexpr double kMaxWriteGBps = 1e6;
constexpr double kMaxRatePerHour = 100;       // failures per node-hour, interruptions per hour
constexpr double kMinYears = 0.01, kMaxYears = 100;
constexpr double kMinShare = 1e-3;            // utilization, truncated fraction
constexpr double kMaxMonths = 1200;
constexpr double kMaxPowerW = 1e7;

const Json* section(const Json& doc, std::string_view key, const std::string& path) {
  if (!doc.is_object() || !has_key(doc, key)) return nullptr;
  const Json& s = doc.at(std::string(key));
  require_object(s, path_key(path, key));
  return &s;
}

std::optional<double> opt_number(const Json& obj, std::string_view key, const std::string& path,
                                 double min, double max) {
  if (!has_key(obj, key)) return std::nullopt;
  return to_number(obj.at(std::string(key)), path_key(path, key), min, max);
}

double number_or(const Json& obj, std::string_view key, const std::string& path, double min,
                 double max, double fallback) {
  return get_number_or(obj, key, path, min, max, fallback);
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
  t.usd_per_hour = opt_number(e, "usd_per_hour", path, 0, kMaxUsd);
  if (has_key(e, "discount")) {
    const double d = get_number(e, "discount", path, 0, 1);
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
    const double d = get_number(*p, "spot_discount", path, 0, 1);
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
  x.usd_per_gb_month = opt_number(s, "usd_per_gb_month", sp, 0, kMaxUsdPerUnit);
  x.dataset_gb = number_or(s, "dataset_gb", sp, 0, kMaxGb, x.dataset_gb);
  if (has_key(s, "retention_days") && has_key(s, "retention_months"))
    throw InputError(path_key(sp, "retention_months"), "give retention_days or retention_months, not both");
  x.retention_days = number_or(s, "retention_days", sp, 0, kMaxMonths * 730.0 / 24.0, x.retention_days);
  if (has_key(s, "retention_months")) x.retention_days = get_number(s, "retention_months", sp, 0, kMaxMonths) * 730.0 / 24.0;
  const std::vector<std::string_view> services = {"s3_standard", "s3_express_one_zone", "fsx_lustre"};
  if (has_key(s, "checkpoints_service")) x.checkpoints_service = get_enum(s, "checkpoints_service", sp, services);
  if (has_key(s, "dataset_service")) x.dataset_service = get_enum(s, "dataset_service", sp, services);
  if (has_key(s, "fsx_tier"))
    x.fsx_tier = get_enum(s, "fsx_tier", sp,
                          {"persistent_2_125", "persistent_2_250", "persistent_2_500", "persistent_2_1000", "scratch_2"});
  if (has_key(s, "fsx_capacity_tib")) x.fsx_capacity_tib = get_number(s, "fsx_capacity_tib", sp, 1e-3, kMaxGb / 1024);
}

void read_transfer(TransferInputs& x, const Json& t) {
  const std::string tp = "overheads.transfer";
  check_keys(t, tp, {"cross_region_copies", "copy_gb", "copy_from_region", "copy_to_region",
                     "cross_region_usd_per_gb", "egress_gb", "egress_gb_per_month", "egress_usd_per_gb"});
  x.cross_region_copies = number_or(t, "cross_region_copies", tp, 0, kMaxRuns, x.cross_region_copies);
  x.copy_gb = opt_number(t, "copy_gb", tp, 0, kMaxGb);
  x.copy_from_region = get_string_or(t, "copy_from_region", tp, x.copy_from_region);
  x.copy_to_region = get_string_or(t, "copy_to_region", tp, x.copy_to_region);
  x.cross_region_usd_per_gb = opt_number(t, "cross_region_usd_per_gb", tp, 0, kMaxUsdPerUnit);
  x.egress_gb = number_or(t, "egress_gb", tp, 0, kMaxGb, x.egress_gb);
  x.egress_gb_per_month = number_or(t, "egress_gb_per_month", tp, 0, kMaxGb, x.egress_gb_per_month);
  x.egress_usd_per_gb = opt_number(t, "egress_usd_per_gb", tp, 0, kMaxUsdPerUnit);
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
    const std::string kind = get_enum(arr[i], "kind", p, {"lost_day", "oom", "throughput_regression", "failed_runs"});
    x.kind = kind == "lost_day" ? IncidentKind::lost_day
             : kind == "oom"    ? IncidentKind::oom
             : kind == "throughput_regression" ? IncidentKind::throughput_regression
                                               : IncidentKind::failed_runs;
    switch (x.kind) {
      case IncidentKind::lost_day:
        check_keys(arr[i], p, {"kind", "days", "note"});
        x.days = number_or(arr[i], "days", p, kMinYears, kMaxMinutes / 1440, 1);
        break;
      case IncidentKind::oom:
        check_keys(arr[i], p, {"kind", "hours", "note"});
        x.hours = get_number(arr[i], "hours", p, kMinYears, kMaxMinutes / 60);
        break;
      case IncidentKind::throughput_regression:
        check_keys(arr[i], p, {"kind", "fraction", "days", "note"});
        x.fraction = get_number(arr[i], "fraction", p, 0, 1);
        x.days = get_number(arr[i], "days", p, kMinYears, kMaxMinutes / 1440);
        break;
      case IncidentKind::failed_runs:
        check_keys(arr[i], p, {"kind", "fraction", "progress", "note"});
        x.fraction = get_number(arr[i], "fraction", p, 0, 1);
        x.progress = get_positive_or(arr[i], "progress", p, 1, 1);
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
  in.queue_hours = number_or(*o, "queue_hours", path, 0, kMaxMinutes / 60, in.queue_hours);
  if (const Json* c = section(*o, "compile", path)) {
    const std::string cp = "overheads.compile";
    check_keys(*c, cp, {"first_s", "recompile_s", "shapes", "cache_hit"});
    in.compile.first_s = opt_number(*c, "first_s", cp, 0, kMaxSeconds);
    in.compile.recompile_s = opt_number(*c, "recompile_s", cp, 0, kMaxSeconds);
    in.compile.shapes = get_int_or(*c, "shapes", cp, 1, 100000, in.compile.shapes);
    in.compile.cache_hit = number_or(*c, "cache_hit", cp, 0, 1, in.compile.cache_hit);
  }
  if (const Json* w = section(*o, "warmup", path)) {
    const std::string wp = "overheads.warmup";
    check_keys(*w, wp, {"minutes", "throughput"});
    in.warmup.minutes = opt_number(*w, "minutes", wp, 0, kMaxMinutes);
    in.warmup.throughput = opt_number(*w, "throughput", wp, 0, 1);
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
        in.checkpoint.interval_min = to_number(v, "overheads.checkpoint.interval_min", kMinIntervalMin, kMaxMinutes);
      }
    }
    if (has_key(*c, "write_gb_per_s"))
      in.checkpoint.write_gb_per_s = get_number(*c, "write_gb_per_s", cp, kMinWriteGBps, kMaxWriteGBps);
    in.checkpoint.bytes_override = number_or(*c, "bytes", cp, 0, kHuge, 0);
    in.checkpoint.kept = get_int_or(*c, "kept", cp, 0, 100000, in.checkpoint.kept);
  }
  if (const Json* f = section(*o, "failures", path)) {
    const std::string fp = "overheads.failures";
    check_keys(*f, fp, {"per_node_hour", "restart_min"});
    in.failures.per_node_hour = number_or(*f, "per_node_hour", fp, 0, kMaxRatePerHour, in.failures.per_node_hour);
    in.failures.restart_min = number_or(*f, "restart_min", fp, 0, kMaxMinutes, in.failures.restart_min);
  }
  if (const Json* s = section(*o, "spot", path)) {
    const std::string sp = "overheads.spot";
    check_keys(*s, sp, {"interruptions_per_hour", "restart_min"});
    in.spot.interruptions_per_hour = opt_number(*s, "interruptions_per_hour", sp, 0, kMaxRatePerHour);
    in.spot.restart_min = number_or(*s, "restart_min", sp, 0, kMaxMinutes, in.spot.restart_min);
  }
  if (const Json* s = section(*o, "storage", path)) read_storage(in.storage, *s);
  if (const Json* t = section(*o, "transfer", path)) read_transfer(in.transfer, *t);
  if (const Json* e = section(*o, "engineering", path)) {
    const std::string ep = "overheads.engineering";
    check_keys(*e, ep, {"person_weeks", "usd_per_week", "spread_runs"});
    in.engineering.person_weeks = number_or(*e, "person_weeks", ep, 0, kMaxRuns, 0);
    in.engineering.usd_per_week = number_or(*e, "usd_per_week", ep, 0, kMaxUsd, 0);
    in.engineering.spread_runs = get_zero_or_number_or(*e, "spread_runs", ep, kMinRuns, kMaxRuns, 0);
  }
}

void read_campaign(CostInputs& in, const Json& doc) {
  const Json* c = section(doc, "campaign", "");
  if (!c) return;
  const std::string p = "campaign";
  check_keys(*c, p, {"runs", "full_runs", "truncated_fraction", "runs_per_month"});
  in.campaign.runs = number_or(*c, "runs", p, kMinRuns, kMaxRuns, in.campaign.runs);
  in.campaign.full_runs = opt_number(*c, "full_runs", p, 0, kMaxRuns);
  in.campaign.truncated_fraction = number_or(*c, "truncated_fraction", p, kMinShare, 1, in.campaign.truncated_fraction);
  in.campaign.runs_per_month = get_zero_or_number_or(*c, "runs_per_month", p, kMinRuns, kMaxRuns, 0);
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
  x.nodes = get_int_or(*o, "nodes", p, 1, 1000000, 0);
  x.capex_usd_per_node = get_number(*o, "capex_usd_per_node", p, 0, kMaxUsd);
  x.depreciation_years = number_or(*o, "depreciation_years", p, kMinYears, kMaxYears, x.depreciation_years);
  x.residual_fraction = number_or(*o, "residual_fraction", p, 0, 1, x.residual_fraction);
  x.financing_rate = number_or(*o, "financing_rate", p, 0, 1, x.financing_rate);
  if (has_key(*o, "financing_years")) x.financing_years = get_number(*o, "financing_years", p, kMinYears, kMaxYears);
  x.maintenance_usd_per_year = number_or(*o, "maintenance_usd_per_year", p, 0, kMaxUsd, 0);
  x.maintenance_fraction_per_year = number_or(*o, "maintenance_fraction_per_year", p, 0, 1, 0);
  x.colocation_usd_per_kw_month = number_or(*o, "colocation_usd_per_kw_month", p, 0, kMaxUsdPerUnit, 0);
  x.utilization = number_or(*o, "utilization", p, kMinShare, 1, x.utilization);
  x.node_power_w = opt_number(*o, "node_power_w", p, 0, kMaxPowerW);
  x.idle_power_fraction = number_or(*o, "idle_power_fraction", p, 0, 1, x.idle_power_fraction);
  x.pue = number_or(*o, "pue", p, 1, 10, x.pue);
  x.usd_per_kwh = opt_number(*o, "usd_per_kwh", p, 0, kMaxUsdPerUnit);
  x.facility_usd_per_year = number_or(*o, "facility_usd_per_year", p, 0, kMaxUsd, 0);
  x.staff_usd_per_year = number_or(*o, "staff_usd_per_year", p, 0, kMaxUsd, 0);
  x.horizon_years = number_or(*o, "horizon_years", p, kMinYears, kMaxYears, x.horizon_years);
}

void read_energy(CostInputs& in, const Json& doc) {
  const Json* e = section(doc, "energy", "");
  if (!e) return;
  const std::string p = "energy";
  check_keys(*e, p, {"usd_per_kwh", "grid_kg_co2e_per_kwh", "cloud_pue", "node_power_w"});
  in.energy.usd_per_kwh = number_or(*e, "usd_per_kwh", p, 0, kMaxUsdPerUnit, in.energy.usd_per_kwh);
  in.energy.grid_kg_co2e_per_kwh = number_or(*e, "grid_kg_co2e_per_kwh", p, 0, 100, in.energy.grid_kg_co2e_per_kwh);
  in.energy.cloud_pue = number_or(*e, "cloud_pue", p, 1, 10, in.energy.cloud_pue);
  in.energy.node_power_w = opt_number(*e, "node_power_w", p, 0, kMaxPowerW);
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
  if (doc.is_object() && has_key(doc, "deadline_days"))
    in.deadline_days = get_number(doc, "deadline_days", "", scenario_field("deadline_days").min,
                                  scenario_field("deadline_days").max);
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
  c.runs = number_or(e, "runs", p, 1e-6, 1e9, 1);
  c.instance_id = get_string_or(e, "instance", p, "");
  if (has_key(e, "other_workload")) c.other_workload = get_bool(e, "other_workload", p);
  if (has_key(e, "nodes")) c.nodes = get_int(e, "nodes", p, 1, 1000000);
  int times = 0;
  if (has_key(e, "wall_time_s")) c.wall_time_s = get_positive(e, "wall_time_s", p, kBig), ++times;
  if (has_key(e, "wall_time_hours")) c.wall_time_s = get_positive(e, "wall_time_hours", p, kBig) * 3600.0, ++times;
  if (has_key(e, "wall_time_days")) c.wall_time_s = get_positive(e, "wall_time_days", p, kBig) * 86400.0, ++times;
  if (times > 1) throw InputError(p, "give one of wall_time_s, wall_time_hours, wall_time_days");
  c.bill_usd = opt_number(e, "bill_usd", p, 0, kBig);
  c.bill_other_usd = number_or(e, "bill_other_usd", p, 0, kBig, 0);
  if (c.bill_usd && c.bill_other_usd > *c.bill_usd)
    throw InputError(path_key(p, "bill_other_usd"), "exceeds bill_usd");
  if (has_key(e, "usd_per_hour")) c.usd_per_hour = get_positive(e, "usd_per_hour", p, kBig);
  if (has_key(e, "tier")) c.tier = tier_value(e, "tier", p, false);
  if (has_key(e, "tflops_per_chip")) c.tflops_per_chip = get_positive(e, "tflops_per_chip", p, 1e7);
  if (has_key(e, "peak_tflops")) c.peak_tflops = get_positive(e, "peak_tflops", p, 1e7);
  c.mfu = opt_number(e, "mfu", p, 0, 100);
  if (has_key(e, "tokens_per_s")) c.tokens_per_s = get_positive(e, "tokens_per_s", p, kHuge);
  if (has_key(e, "training_flops")) c.training_flops = get_positive(e, "training_flops", p, kHuge);
  if (has_key(e, "chips_per_node")) c.chips_per_node = get_int(e, "chips_per_node", p, 1, 1000000);
  if (has_key(e, "hbm_gb_per_chip")) c.hbm_gb_per_chip = get_positive(e, "hbm_gb_per_chip", p, 1e7);
  if (has_key(e, "hbm_gb_per_node")) c.hbm_gb_per_node = get_positive(e, "hbm_gb_per_node", p, 1e9);
  if (has_key(e, "hbm_tb_per_s")) c.hbm_tb_per_s = get_positive(e, "hbm_tb_per_s", p, 1e6);
  if (has_key(e, "link_gb_per_s")) c.link_gb_per_s = get_positive(e, "link_gb_per_s", p, 1e7);
  if (has_key(e, "network_gbps")) c.network_gbps = get_positive(e, "network_gbps", p, 1e9);
  if (has_key(e, "collective")) {
    const std::string cp = path_key(p, "collective");
    const Json& col = e.at("collective");
    check_keys(col, cp, {"bytes", "time_s", "ranks"});
    c.collective_bytes = get_positive(col, "bytes", cp, kHuge);
    c.collective_time_s = get_positive(col, "time_s", cp, kBig);
    c.collective_ranks = get_int_or(col, "ranks", cp, 2, 10000000, 2);
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
