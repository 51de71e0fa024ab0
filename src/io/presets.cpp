#include "io/presets.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/commitments.hpp"
#include "core/cost.hpp"
#include "core/text.hpp"
#include "io/embedded.hpp"
#include "io/limits.hpp"

namespace tc::io {

namespace {

using namespace limits;

// Limits that no real hardware or model reaches: past them an input is a typo or an attack on
// the calculator (loops over layers, allocations per chip), not a design.
// Lower bounds of the rates a step time is divided by: far below any chip or link built (a
// Trainium1 NeuronCore's FP32 is 23.75 TFLOPS), far above the denormals and 1e-300s that would
// make the step time overflow.
constexpr double kMinTflops = 1e-3;       // 1 GFLOP/s
constexpr double kMinHbmGib = 1e-2;
constexpr double kMinHbmTbPerS = 1e-3;      // 1 GB/s
constexpr double kMinLinkGBPerS = 1e-3;     // 1 MB/s
constexpr double kMinNetworkGbps = 1e-3;  // 1 Mbit/s
constexpr double kMinEfficiency = 1e-3;   // of a peak or a link
constexpr double kMaxTflops = 1e6;
constexpr double kMaxHbmGib = 1e5;
constexpr double kMaxSramMib = 1e5;
constexpr double kMaxHbmTbPerS = 1000;
constexpr int kMaxDevicesPerChip = 64;
constexpr int kMaxGemmUnits = 100000;  // SMs of one device
constexpr int kMaxGemmTile = 4096;     // elements along one side of an output tile
constexpr double kMaxPowerW = 1e5;
constexpr int kMaxChipsPerNode = 100000;
constexpr double kMaxLinkGBPerS = 1e6;
constexpr double kMaxLatencyUs = 1e6;
constexpr double kMaxNetworkGbps = 1e7;
constexpr double kMaxHostPowerW = 1e7;
constexpr double kMaxPriceUsd = 1e6;
constexpr double kMaxStepOverheadMs = 1e5;
constexpr double kMaxExpertQuantizeUs = 1000;  // host time a per-expert quantize launch adds
constexpr double kMaxParams = 1e15;
constexpr std::uintmax_t kMaxFileBytes = 16u << 20;

const std::vector<std::string_view> kPrecisionKeys = {"fp32", "tf32", "bf16", "fp16", "fp8", "fp4"};
const std::vector<std::string_view> kCalibrationKeys = {
    "matmul_efficiency_max", "fp8_matmul_efficiency_max", "kernel_overhead_us",  "attention_efficiency",
    "attention_v3_efficiency", "gemm_energy_pj_per_flop", "step_overhead_ms",
    "hbm_efficiency",        "runtime_reserve_gib", "fitted_on"};
const std::vector<std::string_view> kAcceleratorKeys = {
    "id",     "name",    "peak_tflops",         "hbm_gib",     "hbm_tb_per_s", "devices_per_chip",
    "power_w", "stochastic_rounding", "autocasts_fp32_matmul", "gemm_units", "gemm_tile", "exp_tera_per_s", "sram_mib",
    "calibration",
    "sources"};
const std::vector<std::string_view> kIntraKeys = {"type", "gb_per_s_per_chip", "latency_us",
                                                  "efficiency"};
const std::vector<std::string_view> kInterKeys = {"type", "latency_us", "efficiency"};
const std::vector<std::string_view> kPriceKeys = {"tier", "price_usd_per_hour", "region", "regions", "date",
                                                  "source"};
const std::vector<std::string_view> kSpotBandKeys = {"region", "band", "saving", "date", "source"};
const std::vector<std::string_view> kSpotBands = {"<5%", "5-10%", "10-15%", "15-20%", ">20%"};
const std::vector<std::string_view> kInstanceKeys = {
    "id",           "name",          "accelerator", "chips_per_node",
    "intra",        "inter_node_gbps", "inter",     "host_power_w",
    "prices",       "price_note",    "spot_discount", "spot_advisor",
    "regions_offered", "ultraserver", "price_history", "sources"};
const std::vector<std::string_view> kModelKeys = {
    "id",          "name",         "kind",         "layers",
    "hidden",      "ffn_hidden",   "heads",        "kv_heads",     "head_dim",
    "seq_len",     "vocab",        "gated_ffn",    "swiglu_limit", "tied_embeddings",
    "biases",      "dropout",      "learned_positions", "moe_experts",
    "moe_top_k",   "moe_shared_experts", "dense_layers", "dense_ffn_hidden", "dense_layers_first", "mtp_layers",
    "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "v_head_dim", "image_size", "patch_size",
    "channels",    "num_classes",  "published_params", "published_active_params",
    "sources"};
}  // namespace

const std::vector<std::string_view>& model_keys() { return kModelKeys; }

namespace {

const std::vector<std::string_view> kVitOnlyKeys = {"image_size", "patch_size", "channels",
                                                    "num_classes"};
const std::vector<std::string_view> kFrameworkKeys = {"id",         "name",      "dp_overlap",
                                                      "tp_overlap", "grad_bytes", "bucket_mib",
                                                      "elementwise_kernels_per_layer", "moe_kernels_per_layer", "overlap_param_gather", "overlap_p2p", "attention_v3_kernels", "keeps_quantized_gemm_inputs", "per_expert_gemms", "expert_quantize_us", "dispatch_once_per_rank", "fused_projections", "caches_quantized_weights", "selective_recompute", "zero3_gathers_per_layer", "max_zero", "parallelism",
                                                      "ep_overlap", "async_tp_overlap", "dp_all_nics", "runs_on", "sources"};
const std::vector<std::string_view> kSourceKeys = {"fields", "cite", "date", "confidence"};
const std::vector<std::string_view> kModelKinds = {"decoder", "encoder", "vit"};

// Which fields an object must give: all (a preset entry), the defining ones (an inline object
// built from defaults), or none (an inline object that overrides a "base" preset).
enum class Need { all, defining, none };

class Fields {
 public:
  Fields(const Json& j, const std::string& path, Need need) : j_(j), path_(path), need_(need) {}
  // Whether the key is there to read; throws if it is absent but required.
  bool want(std::string_view key, bool defining = false) const {
    if (has_key(j_, key)) return true;
    if (need_ == Need::all || (need_ == Need::defining && defining)) {
      throw InputError(path_key(path_, key), "missing (required)");
    }
    return false;
  }

 private:
  const Json& j_;
  const std::string& path_;
  Need need_;
};

std::vector<std::string_view> with(std::vector<std::string_view> keys,
                                   std::initializer_list<std::string_view> more) {
  keys.insert(keys.end(), more.begin(), more.end());
  return keys;
}

// Ids travel in URLs and file names.
std::string get_id(const Json& j, std::string_view key, const std::string& path) {
  const std::string id = get_string(j, key, path, kMaxIdLength);
  for (const char c : id) {
    if (!is_id_char(c)) {
      throw InputError(path_key(path, key),
                       "must use only letters, digits and . _ - + (got '" + id + "')");
    }
  }
  return id;
}

// Whether "a.b[0].c" names a value inside `root`.
bool field_exists(const Json& root, std::string_view field) {
  const Json* cur = &root;
  std::size_t i = 0;
  if (field.empty()) return false;
  while (i < field.size()) {
    std::size_t j = i;
    while (j < field.size() && field[j] != '.' && field[j] != '[') ++j;
    const std::string name(field.substr(i, j - i));
    if (name.empty() || !cur->is_object()) return false;
    const auto it = cur->find(name);
    if (it == cur->end()) return false;
    cur = &*it;
    while (j < field.size() && field[j] == '[') {
      const std::size_t close = field.find(']', j);
      if (close == std::string_view::npos || close == j + 1) return false;
      std::size_t index = 0;
      for (std::size_t k = j + 1; k < close; ++k) {
        if (field[k] < '0' || field[k] > '9') return false;
        index = index * 10 + static_cast<std::size_t>(field[k] - '0');
        if (index > 1000000) return false;
      }
      if (!cur->is_array() || index >= cur->size()) return false;
      cur = &(*cur)[index];
      j = close + 1;
    }
    if (j < field.size()) {
      if (field[j] != '.' || j + 1 == field.size()) return false;
      ++j;
    }
    i = j;
  }
  return true;
}

std::vector<SourceNote> read_sources(const Json& j, const std::string& path, Need need,
                                     const char* kind, const std::string& id) {
  if (!has_key(j, "sources")) {
    if (need == Need::all) throw InputError(path_key(path, "sources"), "missing (required)");
    return {};
  }
  const std::string sp = path_key(path, "sources");
  const Json& arr = get_array(j, "sources", path, 1000);
  if (need == Need::all && arr.empty()) throw InputError(sp, "must list at least one source");
  std::vector<SourceNote> notes;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string p = path_index(sp, i);
    const Json& s = arr[i];
    check_keys(s, p, kSourceKeys);
    SourceNote n;
    n.kind = kind;
    n.id = id;
    const Json& fields = get_array(s, "fields", p, 1000);
    if (fields.empty()) throw InputError(path_key(p, "fields"), "must name at least one field");
    for (std::size_t k = 0; k < fields.size(); ++k) {
      const std::string fp = path_index(path_key(p, "fields"), k);
      std::string f = to_string_value(fields[k], fp);
      const bool meta = f == "id" || f == "name" || f == "sources" || f.rfind("sources.", 0) == 0;
      if (meta || !field_exists(j, f)) {
        throw InputError(fp, "'" + f + "' names no data field of this entry");
      }
      n.fields.push_back(std::move(f));
    }
    n.cite = get_string(s, "cite", p, kMaxTextLength);
    n.date = get_date(s, "date", p);
    n.confidence = get_enum(s, "confidence", p, {"H", "M", "L"});
    notes.push_back(std::move(n));
  }
  return notes;
}

std::string summarize(const std::vector<SourceNote>& notes) {
  std::string out;
  for (const auto& n : notes) {
    if (!out.empty()) out += "; ";
    for (std::size_t i = 0; i < n.fields.size(); ++i) out += (i ? ", " : "") + n.fields[i];
    out += ": " + n.cite + " (" + n.date + ", " + n.confidence + ")";
  }
  return out;
}

// --- accelerators --------------------------------------------------------------------------

std::vector<SourceNote> read_accelerator(const Json& j, const std::string& path, Need need,
                                         bool allow_base, Accelerator& a) {
  // "tbps" reads as Tbit/s and held TB/s: renamed (issue 11), not read under its old name.
  if (j.is_object() && has_key(j, "hbm_tbps"))
    throw InputError(path_key(path, "hbm_tbps"), "renamed hbm_tb_per_s (decimal TB/s per chip)");
  check_keys(j, path, allow_base ? with(kAcceleratorKeys, {"base"}) : kAcceleratorKeys);
  const Need inner = need == Need::all ? Need::all : Need::none;
  Fields f(j, path, need);
  if (f.want("id")) a.id = get_id(j, "id", path);
  if (f.want("name")) a.name = get_string(j, "name", path);
  if (f.want("peak_tflops", true)) {
    const std::string pp = path_key(path, "peak_tflops");
    const Json& p = get_object(j, "peak_tflops", path);
    check_keys(p, pp, kPrecisionKeys);
    Fields pf(p, pp, inner);
    for (std::size_t i = 0; i < kPrecisionKeys.size(); ++i) {
      if (pf.want(kPrecisionKeys[i])) {
        a.peak_tflops[i] = get_number_nullable(p, kPrecisionKeys[i], pp, 0, kMaxTflops, 0);
        if (a.peak_tflops[i] > 0 && a.peak_tflops[i] < kMinTflops)
          throw InputError(path_key(pp, kPrecisionKeys[i]), "must be null, 0 or >= " + format_number(kMinTflops) +
                                                                " (got " + exact_number(a.peak_tflops[i]) + ")");
      }
    }
  }
  if (f.want("hbm_gib", true)) a.hbm_gib = get_number(j, "hbm_gib", path, kMinHbmGib, kMaxHbmGib);
  if (f.want("hbm_tb_per_s", true)) a.hbm_tb_per_s = get_number(j, "hbm_tb_per_s", path, kMinHbmTbPerS, kMaxHbmTbPerS);
  if (f.want("devices_per_chip")) {
    a.devices_per_chip = get_int(j, "devices_per_chip", path, 1, kMaxDevicesPerChip);
  }
  if (f.want("power_w")) a.power_w = get_positive(j, "power_w", path, kMaxPowerW);
  if (f.want("stochastic_rounding")) {
    a.stochastic_rounding = get_bool(j, "stochastic_rounding", path);
  }
  a.autocasts_fp32_matmul = get_bool_or(j, "autocasts_fp32_matmul", path, a.autocasts_fp32_matmul);
  a.gemm_units = get_int_or(j, "gemm_units", path, 0, kMaxGemmUnits, a.gemm_units);
  if (has_key(j, "gemm_tile")) {
    const std::string tp = path_key(path, "gemm_tile");
    const Json& t = get_object(j, "gemm_tile", path);
    check_keys(t, tp, {"m", "n"});
    Fields tf(t, tp, inner);
    if (tf.want("m")) a.gemm_tile_m = get_int(t, "m", tp, 1, kMaxGemmTile);
    if (tf.want("n")) a.gemm_tile_n = get_int(t, "n", tp, 1, kMaxGemmTile);
    if (a.gemm_units == 0) throw InputError(tp, "has no effect without gemm_units (the SMs its tiles run on)");
  }
  a.exp_tera_per_s = get_number_or(j, "exp_tera_per_s", path, 0, kMaxTflops, a.exp_tera_per_s);
  a.sram_mib = get_number_or(j, "sram_mib", path, 0, kMaxSramMib, a.sram_mib);
  if (f.want("calibration")) {
    const std::string cp = path_key(path, "calibration");
    const Json& c = get_object(j, "calibration", path);
    check_keys(c, cp, kCalibrationKeys);
    Fields cf(c, cp, inner);
    AcceleratorCalibration& cal = a.cal;
    if (cf.want("matmul_efficiency_max")) {
      cal.matmul_efficiency_max = get_number(c, "matmul_efficiency_max", cp, kMinEfficiency, 1);
    }
    // Optional: preset files from before it was fitted use the BF16 efficiency.
    cal.fp8_matmul_efficiency_max =
        get_zero_or_number_or(c, "fp8_matmul_efficiency_max", cp, kMinEfficiency, 1, cal.fp8_matmul_efficiency_max);
    cal.attention_v3_efficiency = get_zero_or_number_or(c, "attention_v3_efficiency", cp, kMinEfficiency, 1, cal.attention_v3_efficiency);
    if (cf.want("kernel_overhead_us")) {
      cal.kernel_overhead_us = get_number(c, "kernel_overhead_us", cp, 0, kMaxLatencyUs);
    }
    cal.step_overhead_ms = get_number_or(c, "step_overhead_ms", cp, 0, kMaxStepOverheadMs, cal.step_overhead_ms);
    if (cf.want("attention_efficiency")) {
      cal.attention_efficiency = get_number(c, "attention_efficiency", cp, kMinEfficiency, 1);
    }
    if (cf.want("hbm_efficiency")) cal.hbm_efficiency = get_number(c, "hbm_efficiency", cp, kMinEfficiency, 1);
    cal.gemm_energy_pj_per_flop = get_zero_or_number_or(c, "gemm_energy_pj_per_flop", cp, 0.01, 100, cal.gemm_energy_pj_per_flop);
    if (cf.want("runtime_reserve_gib")) {
      cal.runtime_reserve_gib = get_number(c, "runtime_reserve_gib", cp, 0, kMaxHbmGib);
    }
    if (cf.want("fitted_on")) cal.fitted_on = get_string(c, "fitted_on", cp, kMaxTextLength);
  }
  if (a.name.empty()) a.name = a.id;
  if (std::none_of(a.peak_tflops.begin(), a.peak_tflops.end(), [](double v) { return v > 0; })) {
    throw InputError(path_key(path, "peak_tflops"), "needs at least one precision above 0");
  }
  if (a.cal.runtime_reserve_gib >= a.hbm_gib) {
    throw InputError(path_key(path_key(path, "calibration"), "runtime_reserve_gib"),
                     "must be below hbm_gib (" + format_number(a.hbm_gib) + ") (got " +
                         format_number(a.cal.runtime_reserve_gib) + ")");
  }
  auto notes = read_sources(j, path, need, "accelerator", a.id);
  if (!notes.empty()) a.source = summarize(notes);
  return notes;
}

// --- instances -----------------------------------------------------------------------------

void read_fabric(const Json& j, std::string_view key, const std::string& path, Need need,
                 bool with_bandwidth, Fabric& fab) {
  const std::string fp = path_key(path, key);
  const Json& o = get_object(j, key, path);
  // The key said Gbit/s and held GB/s: renamed (issue 11), not read under its old name, so a file
  // written for the old key cannot be read as eight times too slow or fast.
  if (with_bandwidth && has_key(o, "gbps_per_chip"))
    throw InputError(path_key(fp, "gbps_per_chip"), "renamed gb_per_s_per_chip (GB/s per chip, one direction)");
  check_keys(o, fp, with_bandwidth ? kIntraKeys : kInterKeys);
  Fields f(o, fp, need);
  if (f.want("type")) fab.type = get_string(o, "type", fp);
  if (with_bandwidth && f.want("gb_per_s_per_chip")) {
    fab.gb_per_s_per_chip = get_zero_or_number(o, "gb_per_s_per_chip", fp, kMinLinkGBPerS, kMaxLinkGBPerS);
  }
  if (f.want("latency_us")) fab.latency_us = get_number(o, "latency_us", fp, 0, kMaxLatencyUs);
  if (f.want("efficiency")) fab.efficiency = get_number(o, "efficiency", fp, kMinEfficiency, 1);
}

// `key` "prices": one entry per tier. "price_history": earlier prices, one per tier and date.
std::string get_region(const Json& j, std::string_view key, const std::string& path) {
  return region_value(require_key(j, key, path), path_key(path, key));
}

// A non-empty list of region ids.
std::vector<std::string> read_region_list(const Json& j, std::string_view key, const std::string& path) {
  const Json& arr = get_array(j, key, path, 64);
  if (arr.empty()) throw InputError(path_key(path, key), "must list at least one region");
  std::vector<std::string> v;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    v.push_back(region_value(arr[i], path_index(path_key(path, key), i)));
  }
  return v;
}

// The regions a price holds in: `key`'s list, which must include `first`; else just `first`.
std::vector<std::string> read_regions(const Json& j, std::string_view key, const std::string& path,
                                      const std::string& first) {
  if (!has_key(j, key)) return {first};
  std::vector<std::string> v = read_region_list(j, key, path);
  if (std::find(v.begin(), v.end(), first) == v.end())
    throw InputError(path_key(path, key), "must include the price's region '" + first + "'");
  return v;
}

bool shares_region(const PriceTier& a, const PriceTier& b) {
  return std::any_of(a.regions.begin(), a.regions.end(), [&](const std::string& r) {
    return std::find(b.regions.begin(), b.regions.end(), r) != b.regions.end();
  });
}

std::vector<SpotBand> read_spot_advisor(const Json& j, const std::string& path) {
  const std::string pp = path_key(path, "spot_advisor");
  const Json& arr = get_array(j, "spot_advisor", path, 64);
  std::vector<SpotBand> v;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string p = path_index(pp, i);
    check_keys(arr[i], p, kSpotBandKeys);
    SpotBand b;
    b.region = get_region(arr[i], "region", p);
    const std::string band = get_enum(arr[i], "band", p, kSpotBands);
    b.band = static_cast<int>(std::find(kSpotBands.begin(), kSpotBands.end(), band) - kSpotBands.begin());
    if (has_key(arr[i], "saving")) b.saving = get_number(arr[i], "saving", p, 0.01, 0.99);
    b.date = get_date(arr[i], "date", p);
    b.source = get_string(arr[i], "source", p, kMaxTextLength);
    for (const auto& other : v)
      if (other.region == b.region) throw InputError(path_key(p, "region"), "duplicate region '" + b.region + "'");
    v.push_back(b);
  }
  return v;
}

std::vector<PriceTier> read_prices(const Json& j, const std::string& path, std::string_view key = "prices") {
  const bool history = key == "price_history";
  const std::string pp = path_key(path, key);
  const Json& arr = get_array(j, key, path, 100);
  std::vector<PriceTier> prices;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string p = path_index(pp, i);
    check_keys(arr[i], p, kPriceKeys);
    PriceTier t;
    t.tier = get_string(arr[i], "tier", p);
    const auto name = parse_tier(t.tier);
    if (!name || name->kind == TierKind::savings_plan || name->kind == TierKind::custom || name->kind == TierKind::spot)
      throw InputError(path_key(p, "tier"), unknown_id_message("list-price tier", t.tier, tier_names(true)));
    t.price_usd_per_hour = get_number(arr[i], "price_usd_per_hour", p, 0, kMaxPriceUsd);
    t.region = get_region(arr[i], "region", p);
    t.regions = read_regions(arr[i], "regions", p, t.region);
    t.date = get_date(arr[i], "date", p);
    t.source = get_string(arr[i], "source", p, kMaxTextLength);
    for (std::size_t k = 0; k < prices.size(); ++k) {
      if (prices[k].tier == t.tier && (!history || prices[k].date == t.date) && shares_region(prices[k], t)) {
        // Consumers pick a price by tier (and date): two of a kind would make the choice arbitrary.
        throw InputError(path_key(p, "tier"), "duplicate tier '" + t.tier + "'" +
                                                  (history ? " on " + t.date : std::string()) + " (also " +
                                                  std::string(key) + "[" + std::to_string(k) + "])");
      }
    }
    prices.push_back(std::move(t));
  }
  return prices;
}

bool has_tier(const Instance& x, std::string_view tier) {
  return std::any_of(x.prices.begin(), x.prices.end(),
                     [&](const PriceTier& t) { return t.tier == tier; });
}

std::vector<SourceNote> read_instance(const Json& j, const std::string& path, Need need,
                                      bool inline_keys, Instance& x, InstanceInfo& info) {
  check_keys(j, path,
             inline_keys ? with(kInstanceKeys, {"base", "devices_per_chip"}) : kInstanceKeys);
  const Need inner = need == Need::all ? Need::all : Need::none;
  Fields f(j, path, need);
  if (f.want("id")) x.id = get_id(j, "id", path);
  if (f.want("name")) x.name = get_string(j, "name", path);
  // An inline instance's accelerator may be an object; its caller resolves it.
  if (!inline_keys && f.want("accelerator", true)) {
    x.accelerator_id = get_id(j, "accelerator", path);
  }
  if (f.want("chips_per_node", true)) {
    x.chips_per_node = get_int(j, "chips_per_node", path, 1, kMaxChipsPerNode);
  }
  if (f.want("intra")) read_fabric(j, "intra", path, inner, true, x.intra);
  if (f.want("inter_node_gbps", true)) {
    x.inter_node_gbps = get_zero_or_number(j, "inter_node_gbps", path, kMinNetworkGbps, kMaxNetworkGbps);
  }
  if (f.want("inter")) read_fabric(j, "inter", path, inner, false, x.inter);
  if (f.want("host_power_w")) x.host_power_w = get_number(j, "host_power_w", path, 0, kMaxHostPowerW);
  if (f.want("prices")) x.prices = read_prices(j, path);
  if (has_key(j, "price_history")) {
    x.price_history = read_prices(j, path, "price_history");
    // ISO dates compare as text: an earlier price must end before the current one's date.
    for (std::size_t i = 0; i < x.price_history.size(); ++i) {
      const PriceTier& h = x.price_history[i];
      for (const auto& now : x.prices)
        if (now.tier == h.tier && h.date >= now.date)
          throw InputError(path_index(path_key(path, "price_history"), i) + ".date",
                           "must be before the current " + now.tier + " price's date (" + now.date + "), got " + h.date);
    }
  }
  info.id = x.id;
  if (has_key(j, "price_note")) info.price_note = get_string(j, "price_note", path, kMaxTextLength);
  if (f.want("spot_discount")) x.spot_discount = get_number(j, "spot_discount", path, 0, 0.99);
  if (has_key(j, "spot_advisor")) x.spot_advisor = read_spot_advisor(j, path);
  if (has_key(j, "regions_offered")) x.regions_offered = read_region_list(j, "regions_offered", path);
  if (has_key(j, "ultraserver")) x.ultraserver = get_bool(j, "ultraserver", path);
  if (x.name.empty()) x.name = x.id;
  if (need == Need::all && !has_tier(x, "on_demand") && info.price_note.empty()) {
    throw InputError(path_key(path, "price_note"),
                     "missing: an instance without an on_demand price must say why");
  }
  auto notes = read_sources(j, path, need, "instance", x.id);
  if (!notes.empty()) x.source = summarize(notes);
  return notes;
}

void validate_instance(const Instance& x, const std::string& path, const std::string& hint) {
  if (x.chips_per_node > 1 && !(x.intra.gb_per_s_per_chip > 0)) {
    throw InputError(path_key(path_key(path, "intra"), "gb_per_s_per_chip"),
                     "must be > 0 when chips_per_node > 1 (got " +
                         format_number(x.intra.gb_per_s_per_chip) + ")" + hint);
  }
  if (x.spot_discount > 0 && !has_tier(x, "on_demand")) {
    throw InputError(path_key(path, "spot_discount"),
                     "is a fraction of the on_demand price, which this instance does not have; "
                     "use 0");
  }
}

// --- models --------------------------------------------------------------------------------

ModelKind kind_of(const std::string& s) {
  if (s == "encoder") return ModelKind::encoder;
  if (s == "vit") return ModelKind::vit;
  return ModelKind::decoder;
}

// A ViT's image, patches and classes; its sequence follows from them (patches + CLS).
void read_vit_image(const Json& j, const std::string& path, Fields& f, bool has_seq, ModelShape& m) {
  if (f.want("image_size", true)) m.image_size = get_int(j, "image_size", path, 1, kMaxImageSize);
  if (f.want("patch_size", true)) m.patch_size = get_int(j, "patch_size", path, 1, kMaxImageSize);
  if (f.want("channels")) m.channels = get_int(j, "channels", path, 1, 1000);
  if (f.want("num_classes", true)) m.num_classes = get_int(j, "num_classes", path, 0, kMaxVocab);
  if (m.image_size % m.patch_size != 0) {
    throw InputError(path_key(path, "patch_size"),
                     "must divide image_size (" + std::to_string(m.image_size) + ") (got " +
                         std::to_string(m.patch_size) + ")");
  }
  const long long side = m.image_size / m.patch_size;
  const long long tokens = side * side + 1;  // patches + CLS
  if (tokens > kMaxSeqLen) {
    throw InputError(path_key(path, "patch_size"),
                     "gives " + std::to_string(tokens) + " tokens; at most " +
                         std::to_string(kMaxSeqLen) + " are allowed");
  }
  if (has_seq && m.seq_len != tokens) {
    throw InputError(path_key(path, "seq_len"),
                     "must be (image_size / patch_size)^2 + 1 = " + std::to_string(tokens) +
                         " (got " + std::to_string(m.seq_len) + ")");
  }
  m.seq_len = static_cast<int>(tokens);
}

// Heads that kv_heads divides; top-k experts only with experts.
void check_heads_and_experts(const ModelShape& m, const std::string& path) {
  if (m.kv_heads > m.heads || m.heads % m.kv_heads != 0) {
    throw InputError(path_key(path, "kv_heads"), "must divide heads (" + std::to_string(m.heads) +
                                                     ") (got " + std::to_string(m.kv_heads) + ")");
  }
  if (m.moe_experts == 0) {
    if (m.moe_top_k != 0) {
      throw InputError(path_key(path, "moe_top_k"), "must be 0 when moe_experts is 0 (got " +
                                                         std::to_string(m.moe_top_k) + ")");
    }
    if (m.moe_shared_experts != 0) {
      throw InputError(path_key(path, "moe_shared_experts"),
                       "must be 0 when moe_experts is 0 (got " +
                           std::to_string(m.moe_shared_experts) + ")");
    }
  } else if (m.moe_top_k < 1 || m.moe_top_k > m.moe_experts) {
    throw InputError(path_key(path, "moe_top_k"), "must be between 1 and moe_experts (" +
                                                       std::to_string(m.moe_experts) + ") (got " +
                                                       std::to_string(m.moe_top_k) + ")");
  }
}

// Optional parts of a decoder's shape (ModelShape): dense layers among the experts and latent
// attention. Absent keys keep the base's values, except that when the layers change a base's
// dense layers leave at least one expert layer (DeepSeek-V3 cut to 3 layers stays a mixture of
// experts); the core checks how given values combine.
void read_decoder_extras(const Json& j, const std::string& path, int base_layers, ModelShape& m) {
  if (has_key(j, "dense_layers"))
    m.dense_layers = get_int(j, "dense_layers", path, 0, kMaxLayers);
  else if (base_layers > 0 && m.layers != base_layers)
    m.dense_layers = std::clamp(m.dense_layers, 0, m.layers - 1);
  m.dense_ffn_hidden = get_int_or(j, "dense_ffn_hidden", path, 0, kMaxFfnHidden, m.dense_ffn_hidden);
  m.dense_layers_first = get_bool_or(j, "dense_layers_first", path, m.dense_layers_first);
  m.mtp_layers = get_int_or(j, "mtp_layers", path, 0, kMaxLayers, m.mtp_layers);
  m.q_lora_rank = get_int_or(j, "q_lora_rank", path, 0, kMaxHidden, m.q_lora_rank);
  m.kv_lora_rank = get_int_or(j, "kv_lora_rank", path, 0, kMaxHidden, m.kv_lora_rank);
  m.qk_rope_head_dim = get_int_or(j, "qk_rope_head_dim", path, 0, kMaxHeadDim, m.qk_rope_head_dim);
  m.v_head_dim = get_int_or(j, "v_head_dim", path, 0, kMaxHeadDim, m.v_head_dim);
}

std::vector<SourceNote> read_model(const Json& j, const std::string& path, Need need,
                                   bool allow_base, ModelShape& m, ModelInfo& info) {
  check_keys(j, path, allow_base ? with(kModelKeys, {"base"}) : kModelKeys);
  Fields f(j, path, need);
  const int base_seq = m.seq_len;
  const int base_positions = m.learned_positions;
  const int base_layers = m.layers;
  if (f.want("id")) m.id = get_id(j, "id", path);
  if (f.want("name")) m.name = get_string(j, "name", path);
  if (f.want("kind")) m.kind = kind_of(get_enum(j, "kind", path, kModelKinds));
  const bool vit = m.kind == ModelKind::vit;
  const bool decoder = m.kind == ModelKind::decoder;
  if (need == Need::defining) {
    m.gated_ffn = decoder;
    m.biases = !decoder;
    m.tied_embeddings = m.kind == ModelKind::encoder;
    m.dropout = false;
    m.channels = 3;
  }
  if (!vit) {
    for (const auto& k : kVitOnlyKeys) {
      if (has_key(j, k)) throw InputError(path_key(path, k), "only for kind vit");
    }
    m.image_size = m.patch_size = m.num_classes = 0;
  }
  if (f.want("layers", true)) m.layers = get_int(j, "layers", path, 1, kMaxLayers);
  if (f.want("hidden", true)) m.hidden = get_int(j, "hidden", path, 1, kMaxHidden);
  if (f.want("ffn_hidden", true)) m.ffn_hidden = get_int(j, "ffn_hidden", path, 1, kMaxFfnHidden);
  if (f.want("heads", true)) m.heads = get_int(j, "heads", path, 1, kMaxHeads);
  if (f.want("kv_heads")) {
    m.kv_heads = get_int(j, "kv_heads", path, 1, kMaxHeads);
  } else if (need == Need::defining) {
    m.kv_heads = m.heads;
  }
  // Optional: most models use hidden / heads.
  m.head_dim = get_int_or(j, "head_dim", path, 0, kMaxHeadDim, m.head_dim);
  // A ViT's sequence follows from image and patch; giving it is allowed but must agree.
  const bool has_seq = vit ? has_key(j, "seq_len") : f.want("seq_len", true);
  if (has_seq) m.seq_len = get_int(j, "seq_len", path, 1, kMaxSeqLen);
  if (vit) {
    if (has_key(j, "vocab")) get_int(j, "vocab", path, 0, 0);
    m.vocab = 0;
  } else if (f.want("vocab", true)) {
    m.vocab = get_int(j, "vocab", path, 1, kMaxVocab);
  }
  if (f.want("gated_ffn")) m.gated_ffn = get_bool(j, "gated_ffn", path);
  m.swiglu_limit = get_number_or(j, "swiglu_limit", path, 0, kMaxSwigluLimit, m.swiglu_limit);
  if (f.want("tied_embeddings")) m.tied_embeddings = get_bool(j, "tied_embeddings", path);
  if (f.want("biases")) m.biases = get_bool(j, "biases", path);
  if (f.want("dropout")) m.dropout = get_bool(j, "dropout", path);
  if (f.want("moe_experts")) m.moe_experts = get_int(j, "moe_experts", path, 0, kMaxExperts);
  if (f.want("moe_top_k")) m.moe_top_k = get_int(j, "moe_top_k", path, 0, kMaxExperts);
  if (f.want("moe_shared_experts")) {
    m.moe_shared_experts = get_int(j, "moe_shared_experts", path, 0, kMaxExperts);
  }
  read_decoder_extras(j, path, base_layers, m);
  if (vit) read_vit_image(j, path, f, has_seq, m);
  if (f.want("learned_positions")) {
    m.learned_positions = get_int(j, "learned_positions", path, 0, kMaxSeqLen);
  } else if (need == Need::defining) {
    m.learned_positions = decoder ? 0 : m.seq_len;
  } else if (base_positions > 0 && base_positions == base_seq) {
    m.learned_positions = m.seq_len;  // a base with one position per token keeps that
  }
  if (f.want("published_params")) {
    info.published_params = get_positive(j, "published_params", path, kMaxParams);
  }
  if (has_key(j, "published_active_params")) {
    info.published_active_params = get_positive(j, "published_active_params", path, kMaxParams);
  }
  info.id = m.id;
  if (m.name.empty()) m.name = m.id;

  check_heads_and_experts(m, path);
  if (info.published_active_params > info.published_params && info.published_params > 0) {
    throw InputError(path_key(path, "published_active_params"),
                     "must not exceed published_params (" +
                         format_number(info.published_params) + ")");
  }
  auto notes = read_sources(j, path, need, "model", m.id);
  if (!notes.empty()) m.source = summarize(notes);
  return notes;
}

// --- frameworks ----------------------------------------------------------------------------

// Where a stack runs ("gpu", "neuron"); both when the entry does not say.
void read_platforms(const Json& j, const std::string& path, FrameworkProfile& fw) {
  if (!has_key(j, "runs_on")) return;
  const std::string at = path_key(path, "runs_on");
  const Json& list = get_array(j, "runs_on", path, 2);
  fw.runs_on_gpu = fw.runs_on_neuron = false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string v = to_string_value(list[i], path_index(at, i));
    if (v != "gpu" && v != "neuron")
      throw InputError(path_index(at, i), "'" + shown_text(v, 40) + "' is not allowed; one of: gpu, neuron");
    (v == "gpu" ? fw.runs_on_gpu : fw.runs_on_neuron) = true;
  }
  if (!fw.runs_on_gpu && !fw.runs_on_neuron) throw InputError(at, "names no platform; give gpu, neuron or both");
}

// Inherits a base framework's meaning when the entry does not state one.
void read_selective(const Json& j, const std::string& path, FrameworkProfile& fw) {
  using S = FrameworkProfile::Selective;
  const char* names[] = {"attention", "every_other_matmul", "none"};
  const std::string v = get_enum_or(j, "selective_recompute", path, {names[0], names[1], names[2]},
                                    names[static_cast<int>(fw.selective)]);
  fw.selective = v == names[1] ? S::every_other_matmul : v == names[2] ? S::none : S::attention;
}

// "parallelism": the parallelisms beyond data parallelism the stack implements (absent: all).
void read_parallelisms(const Json& j, const std::string& path, FrameworkProfile& fw) {
  if (!has_key(j, "parallelism")) return;
  const std::string at = path_key(path, "parallelism");
  const Json& list = get_array(j, "parallelism", path, 6);
  FrameworkProfile::Parallelisms& p = fw.parallelisms;
  const std::pair<const char*, bool*> known[] = {{"tp", &p.tp}, {"sp", &p.sp},   {"pp", &p.pp},
                                                 {"vpp", &p.vpp}, {"cp", &p.cp}, {"ep", &p.ep}};
  for (const auto& [name, flag] : known) *flag = false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string v = to_string_value(list[i], path_index(at, i));
    const auto it = std::find_if(std::begin(known), std::end(known), [&](const auto& k) { return v == k.first; });
    if (it == std::end(known))
      throw InputError(path_index(at, i), "'" + shown_text(v, 40) + "' is not allowed; one of: tp, sp, pp, vpp, cp, ep");
    *it->second = true;
  }
  if ((p.sp && !p.tp) || (p.vpp && !p.pp))
    throw InputError(at, p.sp && !p.tp ? "sp (sequence parallelism) needs tp" : "vpp (interleaving) needs pp");
}

std::vector<SourceNote> read_framework(const Json& j, const std::string& path, Need need,
                                       bool allow_base, FrameworkProfile& fw, FrameworkInfo& info) {
  check_keys(j, path, allow_base ? with(kFrameworkKeys, {"base"}) : kFrameworkKeys);
  Fields f(j, path, need);
  if (f.want("id")) fw.id = get_id(j, "id", path);
  info.id = fw.id;
  if (f.want("name")) info.name = get_string(j, "name", path);
  if (info.name.empty()) info.name = fw.id;
  if (f.want("dp_overlap")) fw.dp_overlap = get_number(j, "dp_overlap", path, 0, 1);
  if (f.want("tp_overlap")) fw.tp_overlap = get_number(j, "tp_overlap", path, 0, 1);
  if (f.want("grad_bytes")) fw.grad_bytes = get_positive(j, "grad_bytes", path, 8);
  if (f.want("bucket_mib")) fw.bucket_mib = get_positive(j, "bucket_mib", path, 1e6);
  // Optional: older preset files predate them.
  fw.elementwise_kernels_per_layer = get_number_or(j, "elementwise_kernels_per_layer", path, 0, 1000,
                                                   fw.elementwise_kernels_per_layer);
  fw.moe_kernels_per_layer = get_number_or(j, "moe_kernels_per_layer", path, 0, 1000, fw.moe_kernels_per_layer);
  fw.async_tp_overlap = get_number_or(j, "async_tp_overlap", path, 0, 1, fw.async_tp_overlap);
  fw.overlap_param_gather = get_bool_or(j, "overlap_param_gather", path, fw.overlap_param_gather);
  fw.overlap_p2p = get_bool_or(j, "overlap_p2p", path, fw.overlap_p2p);
  fw.attention_v3_kernels = get_bool_or(j, "attention_v3_kernels", path, fw.attention_v3_kernels);
  fw.keeps_quantized_gemm_inputs =
      get_bool_or(j, "keeps_quantized_gemm_inputs", path, fw.keeps_quantized_gemm_inputs);
  fw.per_expert_gemms = get_bool_or(j, "per_expert_gemms", path, fw.per_expert_gemms);
  fw.expert_quantize_us = get_number_or(j, "expert_quantize_us", path, 0, kMaxExpertQuantizeUs, fw.expert_quantize_us);
  fw.dispatch_once_per_rank = get_bool_or(j, "dispatch_once_per_rank", path, fw.dispatch_once_per_rank);
  fw.fused_projections = get_bool_or(j, "fused_projections", path, fw.fused_projections);
  fw.caches_quantized_weights = get_bool_or(j, "caches_quantized_weights", path, fw.caches_quantized_weights);
  read_selective(j, path, fw);
  fw.zero3_gathers_per_layer =
      get_int_or(j, "zero3_gathers_per_layer", path, 1, 1000, fw.zero3_gathers_per_layer);
  fw.max_zero = get_int_or(j, "max_zero", path, 0, 3, fw.max_zero);
  read_parallelisms(j, path, fw);
  fw.ep_overlap = get_number_or(j, "ep_overlap", path, 0, 1, fw.ep_overlap);
  fw.dp_all_nics = get_bool_or(j, "dp_all_nics", path, fw.dp_all_nics);
  read_platforms(j, path, fw);
  return read_sources(j, path, need, "framework", fw.id);
}

// One step of a tiered price: {"up_to_units": number or null (no limit), "usd_per_unit", "label"}.
PriceStep read_price_step(const Json& j, const std::string& path, double below) {
  check_keys(j, path, {"up_to_units", "usd_per_unit", "label"});
  PriceStep st;
  if (!j.contains("up_to_units")) throw InputError(path_key(path, "up_to_units"), "missing (required; null = no limit)");
  if (!j.at("up_to_units").is_null()) {
    st.up_to_units = get_positive(j, "up_to_units", path, 1e12);
    if (!(st.up_to_units > below))
      throw InputError(path_key(path, "up_to_units"), "must be above the previous step's (" + format_number(below) + ")");
  }
  st.usd_per_unit = get_number(j, "usd_per_unit", path, 0, 1000);
  st.label = get_string(j, "label", path);
  return st;
}

const std::vector<std::string_view> kServiceKeys = {
    "id", "name", "unit", "region", "steps", "free_units_per_month", "throughput_mb_s_per_tib", "pairs",
    "secondary", "sources"};

// A storage or transfer service: its tiered price, region, and the sources of each figure.
std::vector<SourceNote> read_service(const Json& j, const std::string& path, ServicePrice& x) {
  check_keys(j, path, kServiceKeys);
  x.id = get_id(j, "id", path);
  x.name = get_string(j, "name", path);
  x.unit = get_string(j, "unit", path);
  x.region = get_string(j, "region", path);
  const Json& steps = get_array(j, "steps", path, 16);
  if (steps.empty()) throw InputError(path_key(path, "steps"), "needs at least one step");
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string sp = path_index(path_key(path, "steps"), i);
    require_object(steps[i], sp);
    if (!x.steps.empty() && x.steps.back().up_to_units == 0)
      throw InputError(sp, "follows a step without limit (up_to_units null)");
    x.steps.push_back(read_price_step(steps[i], sp, x.steps.empty() ? 0 : x.steps.back().up_to_units));
  }
  if (x.steps.back().up_to_units != 0) throw InputError(path_key(path, "steps"), "the last step must have no limit (null)");
  x.free_units_per_month = get_number_or(j, "free_units_per_month", path, 0, 1e9, 0);
  x.throughput_mb_s_per_tib = get_number_or(j, "throughput_mb_s_per_tib", path, 0, 1e6, 0);
  if (has_key(j, "pairs")) {
    const Json& pairs = get_array(j, "pairs", path, 1000);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const std::string pp = path_index(path_key(path, "pairs"), i);
      require_object(pairs[i], pp);
      check_keys(pairs[i], pp, {"from", "to", "usd_per_gb"});
      x.pairs.push_back({get_string(pairs[i], "from", pp), get_string(pairs[i], "to", pp),
                         get_number(pairs[i], "usd_per_gb", pp, 0, 1000)});
    }
  }
  x.secondary = get_bool_or(j, "secondary", path, false);
  auto notes = read_sources(j, path, Need::all, "service", x.id);
  for (const auto& n : notes) x.date = std::max(x.date, n.date);  // the latest check (YYYY-MM-DD)
  // The weakest confidence of the sources backing the price.
  x.confidence = "H";
  for (const auto& n : notes)
    if (n.confidence == "L" || (n.confidence == "M" && x.confidence == "H")) x.confidence = n.confidence;
  for (const auto& n : notes) append_item(x.source, n.cite, "; ");
  return notes;
}

// --- the library ---------------------------------------------------------------------------

template <class T>
const T* find_by_id(const std::vector<T>& v, std::string_view id) {
  for (const auto& x : v) {
    if (x.id == id) return &x;
  }
  return nullptr;
}

template <class T>
std::vector<std::string> ids_of(const std::vector<T>& v) {
  std::vector<std::string> out;
  out.reserve(v.size());
  for (const auto& x : v) out.push_back(x.id);
  return out;
}

// Replaces the entry with the item's id or appends it, through an index of the ids built once per
// file: a linear search per entry made merging n entries over n presets cost n^2 (4 files of
// 10,000 models took 14 s).
template <class T>
class Upsert {
 public:
  explicit Upsert(std::vector<T>& v) : v_(v) {
    for (std::size_t i = 0; i < v.size(); ++i) index_.emplace(v[i].id, i);
  }
  void operator()(T item) {
    const auto [it, added] = index_.emplace(item.id, v_.size());
    if (added) v_.push_back(std::move(item));
    else v_[it->second] = std::move(item);
  }
  bool has(const std::string& id) const { return index_.count(id) != 0; }

 private:
  std::vector<T>& v_;
  std::unordered_map<std::string, std::size_t> index_;
};

// The source notes of the entries a file defines, replacing those the entries had: collected per
// file and applied in one pass over the notes (not one pass per entry).
struct NoteBatch {
  const char* kind = "";
  std::unordered_set<std::string> ids;
  std::vector<SourceNote> notes;
  void add(const std::string& id, std::vector<SourceNote> entry_notes, const std::string& file) {
    ids.insert(id);
    for (auto& n : entry_notes) {
      n.file = file;
      notes.push_back(std::move(n));
    }
  }
  void apply(PresetLibrary& lib) {
    lib.notes.erase(std::remove_if(lib.notes.begin(), lib.notes.end(),
                                   [&](const SourceNote& n) { return n.kind == kind && ids.count(n.id) != 0; }),
                    lib.notes.end());
    for (auto& n : notes) lib.notes.push_back(std::move(n));
  }
};

constexpr int kBandTableOrder = 5;
struct Schema {
  const char* name;
  const char* array_key;
  int order;  // merge order: instances refer to accelerators
};
const Schema kSchemas[] = {
    {"traincalc.accelerators/1", "accelerators", 0},
    {"traincalc.instances/1", "instances", 1},
    {"traincalc.models/1", "models", 2},
    {"traincalc.frameworks/1", "frameworks", 3},
    {"traincalc.services/1", "services", 4},
    {"traincalc.uncertainty/1", "groups", kBandTableOrder},  // the band table, replaced whole (io/uncertainty)
};

const Schema* schema_of(const Json& doc) {
  if (!doc.is_object()) return nullptr;
  const auto it = doc.find("schema");
  if (it == doc.end() || !it->is_string()) return nullptr;
  for (const auto& s : kSchemas) {
    if (*it == s.name) return &s;
  }
  return nullptr;
}

int merge_order(const Json& doc) {
  const Schema* s = schema_of(doc);
  return s ? s->order : 99;
}

void merge_document(PresetLibrary& lib, const std::string& label, const Json& doc) {
  const std::string base = label + ": ";
  require_object(doc, label);
  const std::string schema = get_string(doc, "schema", base);
  const Schema* kind = schema_of(doc);
  if (kind == nullptr) {
    std::string expected;
    for (const auto& s : kSchemas) append_item(expected, s.name);
    throw InputError(path_key(base, "schema"),
                     "unknown schema '" + schema + "'; expected one of: " + expected);
  }
  if (kind->order == kBandTableOrder) {
    lib.bands = parse_band_table(doc, label);
    lib.files.push_back(label);
    return;
  }
  check_keys(doc, base, {"schema", kind->array_key, "about"});
  if (has_key(doc, "about")) get_string(doc, "about", base, 20000);
  const std::string ap = path_key(base, kind->array_key);
  const Json& arr = get_array(doc, kind->array_key, base, 10000);
  std::unordered_map<std::string, std::size_t> seen;
  static const char* const kinds[] = {"accelerator", "instance", "model", "framework", "service"};
  NoteBatch batch{kinds[std::min(kind->order, 4)], {}, {}};
  Upsert<Accelerator> accelerators(lib.accelerators);
  Upsert<Instance> instances(lib.instances);
  Upsert<InstanceInfo> instance_infos(lib.instance_infos);
  Upsert<ModelShape> models(lib.models);
  Upsert<ModelInfo> model_infos(lib.model_infos);
  Upsert<FrameworkProfile> frameworks(lib.frameworks);
  Upsert<FrameworkInfo> framework_infos(lib.framework_infos);
  Upsert<ServicePrice> services(lib.services);
  for (std::size_t i = 0; i < arr.size(); ++i) {
    const std::string p = path_index(ap, i);
    require_object(arr[i], p);
    const std::string id = get_id(arr[i], "id", p);
    const auto [dup, added] = seen.emplace(id, i);
    if (!added) {
      throw InputError(path_key(p, "id"), "duplicate id '" + id + "' (also " + kind->array_key +
                                              "[" + std::to_string(dup->second) + "])");
    }
    switch (kind->order) {
      case 0: {
        Accelerator a;
        batch.add(id, read_accelerator(arr[i], p, Need::all, false, a), label);
        accelerators(std::move(a));
        break;
      }
      case 1: {
        Instance x;
        InstanceInfo info;
        auto notes = read_instance(arr[i], p, Need::all, false, x, info);
        if (!accelerators.has(x.accelerator_id)) {
          throw InputError(path_key(p, "accelerator"),
                           unknown_id_message("accelerator", x.accelerator_id,
                                              lib.accelerator_ids()));
        }
        validate_instance(x, p, "");
        instances(std::move(x));
        instance_infos(std::move(info));
        batch.add(id, std::move(notes), label);
        break;
      }
      case 2: {
        ModelShape m;
        ModelInfo info;
        batch.add(id, read_model(arr[i], p, Need::all, false, m, info), label);
        models(std::move(m));
        model_infos(std::move(info));
        break;
      }
      case 4: {
        ServicePrice sv;
        batch.add(id, read_service(arr[i], p, sv), label);
        services(std::move(sv));
        break;
      }
      default: {
        FrameworkProfile fw;
        FrameworkInfo info;
        batch.add(id, read_framework(arr[i], p, Need::all, false, fw, info), label);
        frameworks(std::move(fw));
        framework_infos(std::move(info));
        break;
      }
    }
  }
  batch.apply(lib);
  lib.files.push_back(label);
}

struct LoadedFile {
  std::string label;
  Json doc;
};

void merge_all(PresetLibrary& lib, std::vector<LoadedFile> files) {
  std::stable_sort(files.begin(), files.end(), [](const LoadedFile& a, const LoadedFile& b) {
    return merge_order(a.doc) < merge_order(b.doc);
  });
  PresetLibrary work = lib;
  for (const auto& f : files) merge_document(work, f.label, f.doc);
  lib = std::move(work);
}

bool is_preset_path(std::string_view path) {
  constexpr std::string_view dir = "presets/";
  constexpr std::string_view ext = ".json";
  if (path.size() <= dir.size() + ext.size() || path.substr(0, dir.size()) != dir) return false;
  const std::string_view rest = path.substr(dir.size());
  return rest.find('/') == std::string_view::npos &&
         rest.substr(rest.size() - ext.size()) == ext;
}

}  // namespace

// --- PresetLibrary -------------------------------------------------------------------------

const Accelerator* PresetLibrary::accelerator(std::string_view id) const {
  return find_by_id(accelerators, id);
}
const Instance* PresetLibrary::instance(std::string_view id) const {
  return find_by_id(instances, id);
}
const ModelShape* PresetLibrary::model(std::string_view id) const {
  return find_by_id(models, id);
}
const FrameworkProfile* PresetLibrary::framework(std::string_view id) const {
  return find_by_id(frameworks, id);
}
const ModelInfo* PresetLibrary::model_info(std::string_view id) const {
  return find_by_id(model_infos, id);
}
const InstanceInfo* PresetLibrary::instance_info(std::string_view id) const {
  return find_by_id(instance_infos, id);
}
const FrameworkInfo* PresetLibrary::framework_info(std::string_view id) const {
  return find_by_id(framework_infos, id);
}

const Accelerator& PresetLibrary::require_accelerator(std::string_view id,
                                                      const std::string& field) const {
  if (const auto* a = accelerator(id)) return *a;
  throw InputError(field, unknown_id_message("accelerator", id, accelerator_ids()));
}
const Instance& PresetLibrary::require_instance(std::string_view id,
                                                const std::string& field) const {
  if (const auto* x = instance(id)) return *x;
  throw InputError(field, unknown_id_message("instance", id, instance_ids()));
}
const ModelShape& PresetLibrary::require_model(std::string_view id,
                                               const std::string& field) const {
  if (const auto* m = model(id)) return *m;
  throw InputError(field, unknown_id_message("model", id, model_ids()));
}
const FrameworkProfile& PresetLibrary::require_framework(std::string_view id,
                                                         const std::string& field) const {
  if (const auto* f = framework(id)) return *f;
  throw InputError(field, unknown_id_message("framework", id, framework_ids()));
}

std::vector<std::string> PresetLibrary::accelerator_ids() const { return ids_of(accelerators); }
std::vector<std::string> PresetLibrary::instance_ids() const { return ids_of(instances); }
std::vector<std::string> PresetLibrary::model_ids() const { return ids_of(models); }
std::vector<std::string> PresetLibrary::framework_ids() const { return ids_of(frameworks); }
std::vector<std::string> PresetLibrary::framework_ids_on(const Accelerator& a) const {
  std::vector<std::string> ids;
  for (const auto& f : frameworks)
    if (runs_on(f, a)) ids.push_back(f.id);
  return ids;
}

std::vector<const SourceNote*> PresetLibrary::sources_for(std::string_view kind,
                                                          std::string_view id,
                                                          std::string_view field) const {
  std::vector<const SourceNote*> out;
  for (const auto& n : notes) {
    if (n.kind != kind || n.id != id) continue;
    const bool covers =
        field.empty() || std::any_of(n.fields.begin(), n.fields.end(), [&](const std::string& f) {
          return field == f || (field.size() > f.size() && field.substr(0, f.size()) == f &&
                                (field[f.size()] == '.' || field[f.size()] == '['));
        });
    if (covers) out.push_back(&n);
  }
  return out;
}

// --- loading -------------------------------------------------------------------------------

PresetLibrary load_builtin_presets() {
  std::vector<LoadedFile> files;
  for (const auto& f : embedded_presets()) {
    if (!is_preset_path(f.path)) continue;
    files.push_back({f.path, parse_json(f.contents, f.path)});
  }
  PresetLibrary lib;
  lib.bands = builtin_band_table();
  merge_all(lib, std::move(files));
  return lib;
}

void merge_preset_json(PresetLibrary& lib, const std::string& file_label, const std::string& text) {
  std::vector<LoadedFile> files;
  files.push_back({file_label, parse_json(text, file_label)});
  merge_all(lib, std::move(files));
}

void merge_preset_dir(PresetLibrary& lib, const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InputError(dir, "not a directory");
  std::vector<fs::path> paths;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json" && it->is_regular_file(ec)) paths.push_back(it->path());
  }
  if (ec) throw InputError(dir, "cannot list directory: " + ec.message());
  std::vector<PresetText> files;
  for (const auto& p : paths) {
    const std::string label = p.string();
    const auto size = fs::file_size(p, ec);
    if (ec) throw InputError(label, "cannot read file: " + ec.message());
    if (size > kMaxFileBytes) {
      throw InputError(label, "file is " + std::to_string(size) + " bytes; at most " +
                                  std::to_string(kMaxFileBytes) + " are allowed");
    }
    std::ifstream in(p, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in) throw InputError(label, "cannot read file");
    files.push_back({label, text.str()});
  }
  merge_preset_set(lib, std::move(files));
}

void merge_preset_set(PresetLibrary& lib, std::vector<PresetText> files) {
  auto name_of = [](const std::string& label) {
    const auto slash = label.rfind('/');
    return slash == std::string::npos ? label : label.substr(slash + 1);
  };
  std::stable_sort(files.begin(), files.end(),
                   [&](const PresetText& a, const PresetText& b) { return name_of(a.label) < name_of(b.label); });
  std::vector<LoadedFile> loaded;
  for (const auto& f : files) loaded.push_back({f.label, parse_json(f.text, f.label)});
  merge_all(lib, std::move(loaded));
}

// --- single entries ------------------------------------------------------------------------

Accelerator parse_accelerator(const Json& j, const std::string& path, bool inline_object) {
  require_object(j, path);
  Accelerator a;
  if (inline_object) a.id = "custom";
  read_accelerator(j, path, inline_object ? Need::defining : Need::all, false, a);
  return a;
}

Instance parse_instance(const Json& j, const std::string& path, bool inline_object) {
  require_object(j, path);
  Instance x;
  InstanceInfo info;
  if (inline_object) x.id = "custom";
  read_instance(j, path, inline_object ? Need::defining : Need::all, false, x, info);
  validate_instance(x, path, "");
  return x;
}

ModelShape parse_model(const Json& j, const std::string& path, bool inline_object) {
  require_object(j, path);
  ModelShape m;
  ModelInfo info;
  if (inline_object) m.id = "custom";
  read_model(j, path, inline_object ? Need::defining : Need::all, false, m, info);
  return m;
}

FrameworkProfile parse_framework(const Json& j, const std::string& path, bool inline_object) {
  require_object(j, path);
  FrameworkProfile fw;
  FrameworkInfo info;
  if (inline_object) fw.id = "custom";
  read_framework(j, path, inline_object ? Need::none : Need::all, false, fw, info);
  return fw;
}

Accelerator parse_inline_accelerator(const Json& j, const std::string& path,
                                     const PresetLibrary& lib) {
  require_object(j, path);
  Accelerator a;
  a.id = "custom";
  Need need = Need::defining;
  if (has_key(j, "base")) {
    a = lib.require_accelerator(get_id(j, "base", path), path_key(path, "base"));
    need = Need::none;
  }
  read_accelerator(j, path, need, true, a);
  return a;
}

ModelShape parse_inline_model(const Json& j, const std::string& path, const PresetLibrary& lib) {
  require_object(j, path);
  ModelShape m;
  ModelInfo info;
  m.id = "custom";
  Need need = Need::defining;
  if (has_key(j, "base")) {
    m = lib.require_model(get_id(j, "base", path), path_key(path, "base"));
    need = Need::none;
  }
  read_model(j, path, need, true, m, info);
  return m;
}

FrameworkProfile parse_inline_framework(const Json& j, const std::string& path,
                                        const PresetLibrary& lib) {
  require_object(j, path);
  FrameworkProfile fw;
  FrameworkInfo info;
  fw.id = "custom";
  if (has_key(j, "base")) {
    fw = lib.require_framework(get_id(j, "base", path), path_key(path, "base"));
  }
  read_framework(j, path, Need::none, true, fw, info);
  return fw;
}

Instance parse_inline_instance(const Json& j, const std::string& path, const PresetLibrary& lib,
                               Accelerator& acc_out) {
  require_object(j, path);
  check_keys(j, path, with(kInstanceKeys, {"base", "devices_per_chip"}));
  Instance x;
  Need need = Need::defining;
  const std::string ap = path_key(path, "accelerator");
  auto resolve_accelerator = [&](const Json& v) {
    if (v.is_string()) return lib.require_accelerator(get_id(j, "accelerator", path), ap);
    if (v.is_object()) return parse_inline_accelerator(v, ap, lib);
    throw InputError(ap, "must be an accelerator id or an object (got " + describe_value(v) + ")");
  };
  bool template_found = false;
  if (has_key(j, "base")) {
    x = lib.require_instance(get_id(j, "base", path), path_key(path, "base"));
    acc_out = lib.require_accelerator(x.accelerator_id, path_key(path, "base"));
    if (has_key(j, "accelerator")) acc_out = resolve_accelerator(j.at("accelerator"));
    need = Need::none;
    template_found = true;
  } else {
    acc_out = resolve_accelerator(require_key(j, "accelerator", path));
    x.id = "custom";
    // Links are a property of the machine the chip ships in: borrow them from a preset of it,
    // preferably one of the same size, else one with chip-to-chip links at all (a one-chip
    // preset such as trn1.2xlarge has none).
    const int chips = has_key(j, "chips_per_node") && j.at("chips_per_node").is_number_integer()
                          ? j.at("chips_per_node").get<int>()
                          : 0;
    const Instance* best = nullptr;
    auto rank = [&](const Instance& t) {
      return t.chips_per_node == chips ? 2 : (t.intra.gb_per_s_per_chip > 0 ? 1 : 0);
    };
    for (const auto& t : lib.instances) {
      if (t.accelerator_id == acc_out.id && (best == nullptr || rank(t) > rank(*best))) best = &t;
    }
    if (best != nullptr) {
      x.intra = best->intra;
      x.inter = best->inter;
      x.host_power_w = best->host_power_w;
      template_found = true;
    }
  }
  x.accelerator_id = acc_out.id;
  InstanceInfo info;
  read_instance(j, path, need, true, x, info);
  if (has_key(j, "devices_per_chip")) {
    acc_out.devices_per_chip = get_int(j, "devices_per_chip", path, 1, kMaxDevicesPerChip);
  }
  validate_instance(x, path,
                    template_found ? std::string()
                                   : "; no preset instance uses accelerator '" + acc_out.id +
                                         "' to copy link figures from, so give intra");
  return x;
}

}  // namespace tc::io
