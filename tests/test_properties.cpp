// Properties of the model over many random scenarios (fixed seed, so a failure reproduces):
//   valid scenarios (every preset model on every preset instance, random shapes, plans, precisions,
//   modes, cluster sizes and prices) are accepted, and then
//     - every output is finite and non-negative, and the JSON the CLI prints has no NaN;
//     - the breakdown sums to step_time_s, the wall time to its terms, the bill to its items (and
//       the instance items to the tier lines);
//     - compute never beats the ideal bound, model FLOPs / (chips x dense peak), also with more
//       chips at the same plan shape (MFU <= 1);
//     - memory per device grows with the micro-batch;
//   invalid scenarios (one field broken at a time) throw InputError naming a field, and the CLI
//   turns that into exit status 2 with one line "error: <field>: <reason>" (a few spot checks);
//   a valid scenario with every cost section sent through a link (alone, or over a seed) gives the
//   same result as the scenario itself.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "core/cost.hpp"
#include "core/estimate.hpp"
#include "core/params.hpp"
#include "io/cost_json.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"
#include "io/scenario.hpp"
#include "io/schema.hpp"
#include "io/url_state.hpp"
#include "support.hpp"

namespace {

using tc::io::Json;

using tc_test::lib;

// ---- random valid scenarios ----------------------------------------------------------------

struct Gen {
  std::mt19937_64 rng{20250611};
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  double log_uniform(double lo, double hi) { return std::exp(real(std::log(lo), std::log(hi))); }
  bool coin(double p = 0.5) { return real(0, 1) < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[static_cast<std::size_t>(uniform(0, static_cast<int>(v.size()) - 1))];
  }
};

tc::Precision precision_of(const std::string& name) {
  for (int i = 0; i < tc::kPrecisionCount; ++i)
    if (name == tc::to_string(static_cast<tc::Precision>(i))) return static_cast<tc::Precision>(i);
  return tc::Precision::bf16;
}

std::vector<int> divisors(int n, int limit) {
  std::vector<int> d;
  for (int i = 1; i <= n && i <= limit; ++i)
    if (n % i == 0) d.push_back(i);
  return d;
}

struct Case {
  Json doc;
  std::string what;  // for failure messages
};

// A random shape: a preset, a preset with a few fields changed ("base"), or a whole inline model.
Json random_model(Gen& g, const std::string& preset_id, tc::ModelShape& shape) {
  const tc::ModelShape& p = *lib().model(preset_id);
  const int r = g.uniform(0, 9);
  if (r < 5) {
    shape = p;
    return preset_id;
  }
  if (r < 8) {
    Json m = {{"base", preset_id}};
    shape = p;
    shape.layers = g.uniform(1, 2 * p.layers);
    m["layers"] = shape.layers;
    if (p.kind != tc::ModelKind::vit) {
      shape.seq_len = 1 << g.uniform(6, 15);
      m["seq_len"] = shape.seq_len;
    }
    return m;
  }
  // Inline decoder, possibly MoE.
  shape = tc::ModelShape{};
  shape.kind = tc::ModelKind::decoder;
  shape.kv_heads = 1 << g.uniform(0, 3);
  shape.heads = shape.kv_heads * (1 << g.uniform(0, 3));
  shape.hidden = shape.heads * 32 * g.uniform(1, 4);
  shape.ffn_hidden = shape.hidden * g.uniform(2, 4);
  shape.layers = g.uniform(1, 96);
  shape.seq_len = 1 << g.uniform(5, 15);
  shape.vocab = g.uniform(1000, 256000);
  Json m = {{"layers", shape.layers}, {"hidden", shape.hidden}, {"ffn_hidden", shape.ffn_hidden},
            {"heads", shape.heads},   {"kv_heads", shape.kv_heads}, {"seq_len", shape.seq_len},
            {"vocab", shape.vocab}};
  if (g.coin(0.3)) {
    shape.moe_experts = 1 << g.uniform(1, 4);
    shape.moe_top_k = g.uniform(1, std::min(4, shape.moe_experts));
    m["moe_experts"] = shape.moe_experts;
    m["moe_top_k"] = shape.moe_top_k;
  }
  return m;
}

Json random_tiers(Gen& g);

// The regions the presets price in, and those where nothing is sold (a bill must say so).
const char* const kRegions[] = {"us-east-1", "us-east-2", "us-west-2", "eu-west-2", "sa-east-1", "ap-south-1",
                                "eu-central-1", "me-central-1"};

Json random_pricing(Gen& g) {
  Json p = random_tiers(g);
  if (g.coin(0.5)) p["region"] = kRegions[g.uniform(0, 7)];
  if (g.coin(0.3)) p["instance_regions"] = {{"trn2.48xlarge", "us-east-2"}};
  if (g.coin(0.3)) p["idle_commitment"] = g.coin(0.5) ? "bill" : "share";
  return p;
}

Json random_tiers(Gen& g) {
  switch (g.uniform(0, 7)) {
    case 0: return {{"tier", "on_demand"}, {"fallback", "capacity_block"}};
    case 1: return {{"tier", "custom"}, {"usd_per_hour", g.log_uniform(0.5, 500)}};
    case 2:
      return {{"mix",
               {{{"tier", "on_demand"}, {"fraction", 0.25}, {"fallback", "capacity_block"}},
                {{"tier", "spot"}, {"fraction", 0.5}, {"discount", g.real(0, 0.9)}},
                {{"tier", "custom"}, {"fraction", 0.25}, {"discount", g.real(0, 1)}}}}};
    case 3:
      return {{"mix",
               {{{"tier", "reserved_3y"}, {"instances", g.uniform(0, 8)}, {"fallback", "capacity_block"}},
                {{"tier", "custom"}, {"instances", g.uniform(1, 8)}, {"usd_per_hour", g.real(0, 100)}}}}};
    case 4: {
      const char* term = g.coin(0.5) ? "1y" : "3y";
      const char* cls = g.coin(0.5) ? "" : "_convertible";
      const char* pay[] = {"", "_partial_upfront", "_all_upfront"};
      return {{"tier", std::string("reserved_") + term + cls + pay[g.uniform(0, 2)]}, {"fallback", "on_demand"}};
    }
    case 5:
      return {{"tier", g.coin(0.5) ? "savings_plan_compute_3y" : "savings_plan_instance_1y"},
              {"discount", g.real(0, 0.66)}};
    case 6: return {{"tier", g.coin(0.5) ? "spot" : "sagemaker"}, {"fallback", "on_demand"}};
    default: return {{"tier", "capacity_block"}};
  }
}

// A scenario with a fixed, valid plan for one model and instance.
Case random_valid(Gen& g, const std::string& model_id, const std::string& instance_id) {
  Case c;
  Json& d = c.doc;
  tc::ModelShape m;
  d["model"] = random_model(g, model_id, m);
  d["instance"] = instance_id;
  const tc::Instance& inst = *lib().instance(instance_id);
  const tc::Accelerator& acc = *lib().accelerator(inst.accelerator_id);
  int chips;
  if (inst.chips_per_node > 1 && g.coin(0.1)) {
    chips = g.uniform(1, inst.chips_per_node - 1);  // part of one node
    d["chips"] = chips;
  } else {
    const int nodes = g.pick(std::vector<int>{1, 1, 2, 3, 4, 8, 16, 32, 64, 128});
    if (nodes > 1 && inst.inter_node_gbps <= 0) return random_valid(g, model_id, instance_id);
    d["nodes"] = nodes;
    chips = nodes * inst.chips_per_node;
  }
  const int devices = chips * acc.devices_per_chip;

  std::vector<std::string> precisions;
  for (const char* p : {"fp32", "tf32", "bf16", "bf16", "bf16", "fp16", "fp8", "fp4"})
    if (tc::peak_tflops(acc, precision_of(p)) > 0) precisions.push_back(p);
  d["precision"] = g.pick(precisions);

  // Only the stacks that run on the instance's chips.
  const tc::FrameworkProfile& fw = *lib().framework(g.pick(lib().framework_ids_on(acc)));
  d["framework"] = fw.id;

  // Only what the stack implements.
  const tc::FrameworkProfile::Parallelisms& has = fw.parallelisms;
  const int tokens = tc::tokens_per_sample(m);
  std::vector<int> tps;
  for (int t : divisors(devices, has.tp ? m.heads : 1))
    if (m.heads % t == 0 && (t <= m.kv_heads ? m.kv_heads % t == 0 : t % m.kv_heads == 0))
      tps.push_back(t);
  const int tp = g.pick(tps);
  const int pp = g.pick(divisors(devices / tp, has.pp ? m.layers : 1));
  std::vector<int> cps = {1};
  if (has.cp && g.coin(0.2))
    for (int c2 : divisors(devices / tp / pp, 8))
      if (tokens % c2 == 0) cps.push_back(c2);
  const int cp = g.pick(cps);
  const int dp = devices / tp / pp / cp;
  int vpp = 1;
  if (pp > 1 && has.vpp && g.coin(0.4)) {
    vpp = g.pick(std::vector<int>{2, 4});
    if (pp * vpp > m.layers) vpp = 1;
  }
  int ep = 1;
  if (m.moe_experts > 0 && has.ep) {
    std::vector<int> eps;
    for (int e : divisors(m.moe_experts, m.moe_experts))
      if ((dp * cp) % e == 0 || (e % (dp * cp) == 0 && tp % (e / (dp * cp)) == 0)) eps.push_back(e);  // check_plan's rule
    ep = g.pick(eps);
  }
  const int zero = g.uniform(0, fw.max_zero);
  const int mb = g.pick(std::vector<int>{1, 1, 2, 4});
  d["parallel"] = {{"tp", tp}, {"pp", pp}, {"dp", dp}, {"cp", cp}, {"ep", ep}, {"vpp", vpp},
                   {"sequence_parallel", tp > 1 && has.sp && g.coin(0.7)}, {"zero", zero}};
  // A stated first or last stage, within what the others can share.
  if (pp > 1 && g.coin(0.2)) d["parallel"]["last_stage_layers"] = g.uniform(0, m.layers / pp);
  if (pp > 2 && g.coin(0.2)) d["parallel"]["first_stage_layers"] = g.uniform(0, m.layers / pp);
  d["micro_batch"] = mb;
  d["global_batch"] = static_cast<long long>(mb) * dp * g.uniform(1, 16);
  const bool selective = fw.selective != tc::FrameworkProfile::Selective::none;
  d["recompute"] = g.pick(selective ? std::vector<std::string>{"none", "selective", "full"}
                                    : std::vector<std::string>{"none", "full"});
  d["flash_attention"] = g.coin(0.8);
  d["master_weights"] = g.coin(0.8);
  d["fp32_loss_logits"] = g.coin(0.8);
  d["async_tp"] = g.coin(0.2);
  d["fp8_scaling"] = g.pick(std::vector<std::string>{"per_tensor", "rowwise"});

  const int mode = g.uniform(0, 2);
  Json t;
  if (mode == 2) {
    // A rank the model can hold: at most its narrowest adapted weight (Hu et al. 2021).
    t = {{"mode", "lora"}, {"lora_rank", std::min(1 << g.uniform(0, 8), tc::max_lora_rank(m))}};
  } else {
    t = {{"mode", mode == 0 ? "pretrain" : "full_finetune"}};
  }
  if (g.coin(0.7)) {
    t["tokens"] = g.log_uniform(1e6, 1e13);
  } else {
    t["samples"] = g.log_uniform(1e3, 1e8);
    t["epochs"] = g.real(0.5, 5);
  }
  d["training"] = t;
  d["pricing"] = random_pricing(g);
  if (g.coin(0.3)) d["campaign"] = {{"runs", g.uniform(1, 10)}, {"full_runs", 1}, {"truncated_fraction", g.real(0.01, 1)}};
  if (g.coin(0.3)) d["overheads"] = {{"queue_hours", g.real(0, 48)}, {"storage", {{"dataset_gb", g.real(0, 1e5)}}}};
  if (g.coin(0.2)) d["energy"] = {{"usd_per_kwh", g.real(0, 0.5)}};
  if (g.coin(0.2)) d["deadline_days"] = g.real(1, 100);
  c.what = d.dump();
  return c;
}

// ---- checks --------------------------------------------------------------------------------

bool finite_nonneg(double v) { return std::isfinite(v) && v >= 0; }

template <class Terms>
double sum_of(const Terms& terms) {
  double s = 0;
  for (const auto& t : terms) s += t.value;
  return s;
}

void expect_json_finite(const Json& j, const std::string& path, std::vector<std::string>& bad) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) bad.push_back(path);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it) expect_json_finite(it.value(), path + "." + it.key(), bad);
  if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i) expect_json_finite(j[i], path + "[" + std::to_string(i) + "]", bad);
}

double compute_s(const tc::Estimate& e) {
  double s = 0;
  for (const auto& t : e.breakdown_s)
    if (t.name == "matmul" || t.name == "attention" || t.name == "recompute") s += t.value;
  return s;
}

// Model FLOPs of a step over every chip at dense peak: no plan computes faster. Model FLOPs count
// attention scores as non-causal (PaLM's convention, see model_flops_per_token); a causal kernel
// skips the masked half, so that half is not work any plan must do.
double ideal_compute_s(const tc::io::ScenarioSpec& spec, const tc::Estimate& e) {
  const tc::Scenario& s = spec.scenario;
  // Model FLOPs count causal attention's unmasked half only: the work the kernels must do. The peak
  // is that of the precision the matrix math runs at (BF16 for an auto-cast FP32 job on Neuron).
  const double peak = tc::peak_tflops(s.accelerator, tc::matmul_precision(s)) * 1e12;
  return e.model_flops_per_step / (e.chips * peak);
}

// A scenario path or model field left in `text` ("pricing.region", "pricing.mix[0]",
// "global_batch", "kv_heads"): the first, or "" when there is none. Read apart from
// io::plain_message, from the schema's and the model presets' keys: a word of path characters
// whose first part is a top-level key and that goes deeper or has several words, or a model key
// of several words.
std::string scenario_path_in(const std::string& text) {
  const auto& keys = tc::io::scenario_keys();
  const auto& model = tc::io::model_keys();
  auto path_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '[' || c == ']';
  };
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i;
    while (end < text.size() && path_char(text[end])) ++end;
    if (end == i) {
      ++i;
      continue;
    }
    std::string word = text.substr(i, end - i);
    while (!word.empty() && word.back() == '.') word.pop_back();
    const std::size_t cut = word.find_first_of(".[");
    const std::string root = word.substr(0, cut);
    const bool deeper = cut != std::string::npos && cut + 1 < word.size();
    if (std::find(keys.begin(), keys.end(), root) != keys.end() && (deeper || root.find('_') != std::string::npos))
      return word;
    if (cut == std::string::npos && word.find('_') != std::string::npos &&
        std::find(model.begin(), model.end(), word) != model.end())
      return word;
    i = end;
  }
  return "";
}

// Every property of one valid scenario; returns the problems found.
std::vector<std::string> check_valid(const Case& c) {
  std::vector<std::string> bad;
  auto expect = [&](bool ok, const std::string& what) {
    if (!ok) bad.push_back(what);
  };
  tc::io::Job job;
  tc::io::Result res;
  try {
    job = tc::io::parse_job(c.doc, lib(), "random");
    res = tc::io::evaluate(job, lib());
    tc::io::cost_of(res);
  } catch (const tc::io::InputError& err) {
    return {std::string("rejected: ") + err.what()};
  }
  const tc::io::ScenarioSpec& spec = job.spec;
  const tc::Estimate& e = res.est;
  const tc::io::CostReport& cost = *res.cost;
  // Finite and non-negative.
  expect(std::isfinite(e.step_time_s) && e.step_time_s > 0, "step_time_s");
  for (const auto& t : e.breakdown_s) expect(finite_nonneg(t.value), "breakdown_s." + t.name);
  const std::pair<const char*, double> outs[] = {
      {"tokens_per_s", e.tokens_per_s}, {"samples_per_s", e.samples_per_s},
      {"tokens_per_s_per_chip", e.tokens_per_s_per_chip}, {"mfu", e.mfu}, {"hfu", e.hfu},
      {"tflops_per_chip", e.tflops_per_chip}, {"model_flops_per_step", e.model_flops_per_step},
      {"hardware_flops_per_step", e.hardware_flops_per_step}, {"steps", e.steps},
      {"train_time_s", e.train_time_s}, {"params", e.params}, {"active_params", e.active_params},
      {"checkpoint_bytes", e.checkpoint_bytes}, {"memory.weights", e.memory.weights_gib},
      {"memory.gradients", e.memory.gradients_gib}, {"memory.optimizer", e.memory.optimizer_gib},
      {"memory.activations", e.memory.activations_gib}, {"memory.other", e.memory.other_gib},
      {"memory.total", e.memory.total_gib}, {"memory.capacity", e.memory.capacity_gib},
      {"wall_time", cost.result.wall.total_s}, {"bill", cost.result.bill.total_usd},
      {"instance_hours", cost.result.bill.instance_hours}};
  for (const auto& [name, v] : outs) expect(finite_nonneg(v), std::string(name) + " = " + std::to_string(v));
  expect(e.hfu >= e.mfu * (1 - 1e-12), "hfu < mfu");
  // Sums.
  auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({std::abs(a), std::abs(b), 1e-300}); };
  expect(near(sum_of(e.breakdown_s), e.step_time_s), "breakdown does not sum to step_time_s");
  const double mem_sum = e.memory.weights_gib + e.memory.gradients_gib + e.memory.optimizer_gib +
                         e.memory.activations_gib + e.memory.other_gib;
  expect(near(mem_sum, e.memory.total_gib), "memory terms do not sum to total");
  expect(near(sum_of(cost.result.wall.terms), cost.result.wall.total_s), "wall time terms");
  const tc::Bill& b = cost.result.bill;
  for (const auto& t : b.items_usd) expect(finite_nonneg(t.value), "bill item " + t.name);
  expect(near(sum_of(b.items_usd), b.total_usd), "bill items do not sum to the total");
  double tiers_usd = 0, tiers_hours = 0, tiers_idle = 0, instance_items = 0, idle_items = 0;
  for (const auto& t : b.tiers) {
    tiers_usd += t.usd;
    tiers_hours += t.instance_hours;
    tiers_idle += t.idle_usd;
    // An idle part under half a cent rounds to $0.00 and is left off the bill.
    expect(t.committed_usd == 0 || near(t.committed_usd, t.usd + t.idle_usd) ||
               (t.idle_usd == 0 && std::abs(t.committed_usd - t.usd) < 0.005),
           "commitment is not used + idle");
  }
  for (const auto& t : b.items_usd) {
    if (t.name.rfind("instance.", 0) != 0) continue;
    instance_items += t.value;
    if (t.name.size() > 5 && t.name.compare(t.name.size() - 5, 5, ".idle") == 0) idle_items += t.value;
  }
  expect(near(tiers_usd, instance_items - idle_items), "tier lines do not sum to the instance items");
  expect(near(idle_items, tiers_idle) || idle_items == 0, "idle items are not the tiers' idle commitments");
  expect(near(tiers_hours, b.instance_hours), "tier hours do not sum to the instance-hours");
  if (b.priced)
    expect(near(sum_of(b.instance_usd_by_term), instance_items) || instance_items == 0,
           "instance cost by wall-time term does not sum to the instance items");
  // Ideal bound (MFU <= 1), and the bill's compute-only bound.
  const double ideal = ideal_compute_s(spec, e);
  expect(compute_s(e) >= ideal * (1 - 1e-9), "compute " + std::to_string(compute_s(e)) +
                                                 " s beats the ideal bound " + std::to_string(ideal) + " s");
  expect(e.mfu <= 1 + 1e-9, "mfu > 1");
  if (b.priced && b.compute_only_bound_usd > 0)
    expect(instance_items >= b.compute_only_bound_usd * (1 - 1e-9), "instance bill below the compute-only bound");
  // What the CLI prints; and what the page shows of each warning, in plain words.
  expect_json_finite(tc::io::result_json(job, res), "$", bad);
  std::vector<std::string> warnings = e.warnings;
  warnings.insert(warnings.end(), cost.result.warnings.begin(), cost.result.warnings.end());
  for (const auto& w : warnings) {
    const std::string left = scenario_path_in(tc::io::plain_message(w));
    expect(left.empty(), "shown warning names " + left + ": " + tc::io::plain_message(w));
  }
  return bad;
}

TEST(Properties, RandomValidScenariosHoldTheInvariants) {
  Gen g;
  const auto models = lib().model_ids();
  const auto instances = lib().instance_ids();
  int n = 0, failures = 0, more_chips = 0, memory_checks = 0;
  std::vector<int> per_model(models.size()), per_instance(instances.size());
  constexpr int kScenarios = 10000;
  for (int i = 0; i < kScenarios; ++i) {
    const std::size_t mi = static_cast<std::size_t>(i) % models.size();
    const std::size_t ii = (static_cast<std::size_t>(i) / models.size()) % instances.size();
    const Case c = random_valid(g, models[mi], instances[ii]);
    const auto bad = check_valid(c);
    ++n;
    if (bad.empty()) {
      ++per_model[mi];
      ++per_instance[ii];
    } else if (++failures <= 10) {
      std::string all;
      for (const auto& b : bad) all += "\n    " + b;
      ADD_FAILURE() << "scenario " << i << ": " << c.what << all;
    }

    // More chips at the same plan shape (dp and nodes doubled): still at or above the bound.
    if (i % 8 == 0 && c.doc.contains("nodes")) {
      Json big = c.doc;
      big["nodes"] = big["nodes"].get<int>() * 2;
      big["parallel"]["dp"] = big["parallel"]["dp"].get<int>() * 2;
      const long long per = big["micro_batch"].get<long long>() * big["parallel"]["dp"].get<long long>();
      if (big["global_batch"].get<long long>() % per != 0) big["global_batch"] = big["global_batch"].get<long long>() * 2;
      try {
        const auto s1 = tc::io::parse_scenario(c.doc, lib(), "small");
        const auto s2 = tc::io::parse_scenario(big, lib(), "big");
        const auto e1 = tc::io::run_estimate(s1), e2 = tc::io::run_estimate(s2);
        EXPECT_GE(compute_s(e2), ideal_compute_s(s2, e2) * (1 - 1e-9)) << big.dump();
        // Same batch on more chips: no fewer FLOPs in the step, and compute per chip no lower
        // than the ideal of the larger cluster.
        if (big["global_batch"] == c.doc["global_batch"]) {
          EXPECT_GE(e2.model_flops_per_step, e1.model_flops_per_step * (1 - 1e-12)) << big.dump();
        }
        ++more_chips;
      } catch (const tc::io::InputError& err) {
        if (std::string(err.what()).find("inter_node") == std::string::npos)
          ADD_FAILURE() << "doubling the cluster was rejected: " << err.what() << "\n" << big.dump();
      }
    }

    // Memory per device grows with the micro-batch, the rest of the plan fixed.
    if (i % 4 == 0) {
      try {
        const auto spec = tc::io::parse_scenario(c.doc, lib(), "mb");
        tc::Scenario s = spec.scenario;
        s.plan = tc::io::run_estimate(spec).plan;
        // The same number of micro-batches per step (a fixed global batch would have fewer of
        // them in flight in the pipeline as each grows).
        const long long count = std::max<long long>(s.global_batch / (1LL * s.plan.micro_batch * s.plan.dp), 1);
        double prev_total = -1, prev_act = -1;
        for (int mb : {1, 2, 4, 8, 16}) {
          s.plan.micro_batch = mb;
          s.global_batch = count * mb * s.plan.dp;
          const tc::Memory mem = tc::memory_per_device(s);
          EXPECT_GE(mem.total_gib, prev_total) << "micro_batch " << mb << ": " << c.what;
          EXPECT_GE(mem.activations_gib, prev_act) << "micro_batch " << mb << ": " << c.what;
          prev_total = mem.total_gib;
          prev_act = mem.activations_gib;
        }
        ++memory_checks;
      } catch (const tc::io::InputError&) {
      }
    }
  }
  EXPECT_EQ(failures, 0) << failures << " of " << n << " scenarios broke a property";
  for (std::size_t k = 0; k < models.size(); ++k) EXPECT_GT(per_model[k], 0) << models[k];
  for (std::size_t k = 0; k < instances.size(); ++k) EXPECT_GT(per_instance[k], 0) << instances[k];
  EXPECT_GE(n, 10000);
  EXPECT_GT(more_chips, 500);
  EXPECT_GT(memory_checks, 1000);
  std::printf("properties: %d random valid scenarios over %zu models x %zu instances; %d doubled "
              "clusters; %d micro-batch sweeps\n",
              n, models.size(), instances.size(), more_chips, memory_checks);
}

// ---- random invalid scenarios ----------------------------------------------------------------

struct Breakage {
  const char* field;  // the field the error must name (a prefix of InputError::field())
  std::function<void(Json&, Gen&)> apply;
};

const std::vector<Breakage>& breakages() {
  static const std::vector<Breakage> list = {
      {"nodes", [](Json& d, Gen& g) { d.erase("chips"); d["nodes"] = g.pick(std::vector<int>{0, -1, -1000}); }},
      {"nodes", [](Json& d, Gen&) { d.erase("chips"); d["nodes"] = 1.5; }},
      {"nodes", [](Json& d, Gen&) { d.erase("chips"); d["nodes"] = "two"; }},
      {"nodes", [](Json& d, Gen&) { d.erase("chips"); d["nodes"] = nullptr; }},
      {"nodes", [](Json& d, Gen&) { d.erase("chips"); d["nodes"] = 1e300; }},
      {"chips", [](Json& d, Gen&) { d["nodes"] = 1; d["chips"] = 8; }},
      {"chips", [](Json& d, Gen&) { d.erase("nodes"); d["chips"] = 0; }},
      {"precision", [](Json& d, Gen&) { d["precision"] = "fp6"; }},  // Blackwell has FP6; the model does not
      {"precision", [](Json& d, Gen&) { d["precision"] = 16; }},
      {"parallel.tp", [](Json& d, Gen&) { d["parallel"]["tp"] = 0; }},
      {"parallel.tp", [](Json& d, Gen&) { d["parallel"]["tp"] = -4; }},
      {"parallel.tp", [](Json& d, Gen&) { d["parallel"]["tp"] = 1e9; }},
      {"parallel.tp", [](Json& d, Gen&) { d["parallel"]["tp"] = "eight"; }},
      {"parallel.pp", [](Json& d, Gen&) { d["parallel"]["pp"] = 0.5; }},
      {"parallel.dp", [](Json& d, Gen&) { d["parallel"]["dp"] = -2; }},
      {"parallel.zero", [](Json& d, Gen&) { d["parallel"]["zero"] = 4; }},
      {"parallel.vpp", [](Json& d, Gen&) { d["parallel"]["vpp"] = 0; }},
      {"parallel.sequence_parallel", [](Json& d, Gen&) { d["parallel"]["sequence_parallel"] = "yes"; }},
      {"parallel.tpp", [](Json& d, Gen&) { d["parallel"]["tpp"] = 2; }},
      {"parallel.last_stage_layers", [](Json& d, Gen&) { d["parallel"]["last_stage_layers"] = -2; }},
      {"parallel.last_stage_layers", [](Json& d, Gen&) { d["parallel"]["last_stage_layers"] = 99999; }},
      {"parallel.first_stage_layers", [](Json& d, Gen&) { d["parallel"]["first_stage_layers"] = 1.5; }},
      {"parallel", [](Json& d, Gen&) { d["parallel"]["dp"] = d["parallel"]["dp"].get<int>() * 3; }},
      {"micro_batch", [](Json& d, Gen&) { d["micro_batch"] = 0; }},
      {"micro_batch", [](Json& d, Gen&) { d["micro_batch"] = "big"; }},
      {"global_batch", [](Json& d, Gen&) { d["global_batch"] = 0; }},
      {"global_batch", [](Json& d, Gen&) { d["global_batch"] = -512; }},
      {"global_batch", [](Json& d, Gen&) {
         // Asked for exactly: without global_batch_exact the nearest batch that splits is used.
         const long long per = d["micro_batch"].get<long long>() * d["parallel"]["dp"].get<long long>();
         d["global_batch"] = per > 1 ? per * 3 + 1 : 0;
         d["global_batch_exact"] = true;
       }},
      {"recompute", [](Json& d, Gen&) { d["recompute"] = "sometimes"; }},
      {"training.tokens", [](Json& d, Gen&) { d["training"].erase("samples"); d["training"].erase("epochs"); d["training"]["tokens"] = -1; }},
      {"training.tokens", [](Json& d, Gen&) { d["training"].erase("samples"); d["training"].erase("epochs"); d["training"]["tokens"] = "1e12"; }},
      {"training.mode", [](Json& d, Gen&) { d["training"]["mode"] = "rlhf"; }},
      {"training.lora_rank", [](Json& d, Gen&) { d["training"]["mode"] = "pretrain"; d["training"]["lora_rank"] = 8; }},
      {"training.lora_rank", [](Json& d, Gen&) { d["training"]["mode"] = "lora"; d["training"]["lora_rank"] = 0; }},
      {"training", [](Json& d, Gen&) { d["training"] = 1e12; }},
      {"model", [](Json& d, Gen&) { d["model"] = "llama-9b"; }},
      {"model", [](Json& d, Gen&) { d["model"] = ""; }},
      {"model", [](Json& d, Gen&) { d["model"] = 7; }},
      {"model", [](Json& d, Gen&) { d.erase("model"); }},
      {"model.layers", [](Json& d, Gen&) { d["model"] = {{"base", "llama3.1-8b"}, {"layers", 0}}; }},
      {"model.", [](Json& d, Gen&) { d["model"] = {{"base", "llama3.1-8b"}, {"heads", 30}}; }},
      {"model.hidden", [](Json& d, Gen&) { d["model"] = {{"base", "llama3.1-8b"}, {"hidden", -4096}}; }},
      {"model.seq_len", [](Json& d, Gen&) { d["model"] = {{"base", "llama3.1-8b"}, {"seq_len", 2.5}}; }},
      {"model.moe_top_k", [](Json& d, Gen&) { d["model"] = {{"base", "mixtral-8x7b"}, {"moe_top_k", 9}}; }},
      {"instance", [](Json& d, Gen&) { d["instance"] = "p9.48xlarge"; }},
      {"instance", [](Json& d, Gen&) { d["instance"] = nullptr; }},
      {"instance.chips_per_node", [](Json& d, Gen&) {
         d["instance"] = {{"accelerator", "h100-sxm"}, {"chips_per_node", 0}, {"inter_node_gbps", 3200}};
       }},
      {"instance.accelerator", [](Json& d, Gen&) {
         d["instance"] = {{"accelerator", "h1000"}, {"chips_per_node", 8}, {"inter_node_gbps", 3200}};
       }},
      {"framework", [](Json& d, Gen&) { d["framework"] = "jax"; }},
      {"flash_attention", [](Json& d, Gen&) { d["flash_attention"] = "yes"; }},
      {"master_weights", [](Json& d, Gen&) { d["master_weights"] = 1; }},
      {"fp32_loss_logits", [](Json& d, Gen&) { d["fp32_loss_logits"] = "no"; }},
      {"async_tp", [](Json& d, Gen&) { d["async_tp"] = "on"; }},
      {"fp8_scaling", [](Json& d, Gen&) { d["fp8_scaling"] = "columnwise"; }},
      {"recompute_layers", [](Json& d, Gen&) { d["recompute_layers"] = -3; }},
      {"recompute_layers", [](Json& d, Gen&) {
         d["recompute"] = "none";
         d["recompute_layers"] = 2;
       }},
      {"nodez", [](Json& d, Gen&) { d["nodez"] = 4; }},
      {"name", [](Json& d, Gen&) { d["name"] = std::string(5000, 'x'); }},
      {"name", [](Json& d, Gen&) { d["name"] = "line\nbreak"; }},
      {"pricing", [](Json& d, Gen&) { d["pricing"] = {{"tier", "on_demand"}, {"mix", Json::array()}}; }},
      {"pricing.mix", [](Json& d, Gen&) {
         d["pricing"] = {{"mix", {{{"tier", "on_demand"}, {"fraction", 0.5}}, {{"tier", "spot"}, {"fraction", 0.4}}}}};
       }},
      {"pricing.tier", [](Json& d, Gen&) { d["pricing"] = {{"tier", "free"}}; }},
      {"pricing.tier", [](Json& d, Gen&) { d["pricing"] = {{"tier", "reserved_2y"}}; }},
      {"pricing.region", [](Json& d, Gen&) { d["pricing"] = {{"region", "US East (Ohio)"}}; }},
      {"pricing.instance_regions.p5.48xlarge",
       [](Json& d, Gen&) { d["pricing"] = {{"instance_regions", {{"p5.48xlarge", 3}}}}; }},
      {"pricing.idle_commitment", [](Json& d, Gen&) { d["pricing"] = {{"idle_commitment", "maybe"}}; }},
      {"pricing.mix[0].discount",
       [](Json& d, Gen&) { d["pricing"] = {{"tier", "savings_plan_instance_3y"}, {"discount", 0.8}}; }},
      {"pricing.usd_per_hour", [](Json& d, Gen&) { d["pricing"] = {{"tier", "custom"}, {"usd_per_hour", -3}}; }},
      {"overheads.queue_hours", [](Json& d, Gen&) { d["overheads"] = {{"queue_hours", -1}}; }},
      {"campaign.runs", [](Json& d, Gen&) { d["campaign"] = {{"runs", "many"}}; }},
      {"energy.usd_per_kwh", [](Json& d, Gen&) { d["energy"] = {{"usd_per_kwh", -0.1}}; }},
      {"deadline_days", [](Json& d, Gen&) { d["deadline_days"] = -5; }},
      {"baseline_instance", [](Json& d, Gen&) { d["baseline_instance"] = "p5.48xlarg"; }},
      {"compare_instances", [](Json& d, Gen&) { d["compare_instances"] = {"p5.48xlarge", "nope"}; }},
  };
  return list;
}

TEST(Properties, RandomInvalidScenariosNameTheField) {
  Gen g;
  g.rng.seed(7);
  const auto models = lib().model_ids();
  const auto instances = lib().instance_ids();
  const auto& list = breakages();
  int n = 0;
  for (int i = 0; i < 2000; ++i) {
    Case c = random_valid(g, models[static_cast<std::size_t>(i) % models.size()],
                          instances[static_cast<std::size_t>(i / 3) % instances.size()]);
    const Breakage& b = list[static_cast<std::size_t>(i) % list.size()];
    b.apply(c.doc, g);
    std::string field, message;
    try {
      (void)tc::io::cost_of(tc::io::evaluate(tc::io::parse_job(c.doc, lib(), "random"), lib()));
    } catch (const tc::io::InputError& err) {
      field = err.field();
      message = err.what();
    }
    ++n;
    ASSERT_FALSE(message.empty()) << "accepted an invalid scenario (" << b.field << "): " << c.doc.dump();
    EXPECT_FALSE(field.empty()) << message;
    EXPECT_EQ(field.rfind(b.field, 0), 0u)
        << "expected an error naming " << b.field << ", got \"" << message << "\"\n" << c.doc.dump().substr(0, 2000);
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_EQ(scenario_path_in(tc::io::plain_message(message)), "") << tc::io::plain_message(message);
  }
  EXPECT_GE(n, 2000);
}

// The CLI maps the same errors to exit status 2 and one line on stderr.
TEST(Properties, CliExitsWithStatus2NamingTheField) {
  Gen g;
  g.rng.seed(11);
  const std::string dir = testing::TempDir();
  const auto& list = breakages();
  for (std::size_t k : {std::size_t{0}, std::size_t{9}, std::size_t{19}, std::size_t{24}, std::size_t{32},
                        std::size_t{52}}) {
    Case c = random_valid(g, "llama3.1-8b", "p5.48xlarge");
    list[k].apply(c.doc, g);
    const std::string in = dir + "tc_invalid_" + std::to_string(k) + ".json";
    const std::string err = dir + "tc_invalid_" + std::to_string(k) + ".err";
    std::ofstream(in) << c.doc.dump();
    const std::string cmd = std::string(TRAINCALC_CLI) + " estimate " + in + " > /dev/null 2> " + err;
    const int st = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(st));
    EXPECT_EQ(WEXITSTATUS(st), 2) << list[k].field << ": " << c.doc.dump();
    std::stringstream text;
    text << std::ifstream(err).rdbuf();
    const std::string line = text.str();
    EXPECT_EQ(line.rfind(std::string("error: ") + list[k].field, 0), 0u) << line;
    EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 1) << line;
  }
}

// ---- links ----------------------------------------------------------------------------------

// Every cost section a scenario may set, with random valid values: storage by service, transfer,
// engineering, compile, checkpoints, failures, incidents (with notes a link must escape), an
// owned cluster, energy, the campaign's pace.
void add_random_cost_sections(Gen& g, Json& d) {
  const std::vector<std::string> services = {"s3_standard", "s3_express_one_zone", "fsx_lustre"};
  Json o = {{"queue_hours", g.real(0, 48)},
            {"storage", {{"dataset_gb", g.log_uniform(1, 1e6)}, {"retention_days", g.real(0, 400)},
                         {"checkpoints_service", g.pick(services)}, {"dataset_service", g.pick(services)},
                         {"fsx_tier", g.coin(0.5) ? "persistent_2_1000" : "scratch_2"}}},
            {"transfer", {{"cross_region_copies", g.uniform(0, 3)}, {"copy_from_region", "us-east-1"},
                          {"copy_to_region", g.coin(0.5) ? "us-east-2" : "eu-west-2"},
                          {"egress_gb", g.real(0, 1e5)}, {"egress_gb_per_month", g.real(0, 1e4)}}},
            {"engineering", {{"person_weeks", g.uniform(0, 20)}, {"usd_per_week", g.real(0, 1e4)},
                             {"spread_runs", g.uniform(0, 5)}}},
            {"compile", {{"first_s", g.real(0, 3600)}, {"shapes", g.uniform(1, 8)}, {"cache_hit", g.real(0, 1)}}},
            {"checkpoint", {{"interval_min", g.coin(0.5) ? Json("auto") : Json(g.real(5, 240))}, {"kept", g.uniform(1, 5)}}},
            {"failures", {{"per_node_hour", g.log_uniform(1e-6, 1e-3)}}},
            {"spot", {{"restart_min", g.real(0, 60)}}}};
  // FSx provisioned for what it holds, with room (a smaller one is an error naming the field).
  if (g.coin(0.5)) o["storage"]["fsx_capacity_tib"] = o["storage"]["dataset_gb"].get<double>() / 1024 * 1.5 + 100;
  d["overheads"] = o;
  Json inc = Json::array();
  for (int i = g.uniform(0, 3); i > 0; --i) {
    switch (g.uniform(0, 3)) {
      case 0: inc.push_back({{"kind", "lost_day"}, {"days", g.real(0.5, 3)}, {"note", "A38: a day, lost & found"}}); break;
      case 1: inc.push_back({{"kind", "oom"}, {"hours", g.real(0.5, 8)}}); break;
      case 2: inc.push_back({{"kind", "throughput_regression"}, {"fraction", g.real(0.05, 0.5)}, {"days", g.real(1, 9)}}); break;
      default: inc.push_back({{"kind", "failed_runs"}, {"fraction", g.real(0, 0.3)}, {"progress", g.real(0.1, 1)}});
    }
  }
  if (!inc.empty()) d["incidents"] = inc;
  if (g.coin(0.5))
    d["owned_cluster"] = {{"capex_usd_per_node", g.real(1e5, 4e5)}, {"depreciation_years", g.real(3, 6)},
                          {"residual_fraction", g.real(0, 0.3)}, {"financing_rate", g.real(0, 0.1)},
                          {"utilization", g.real(0.3, 1)}, {"pue", g.real(1.1, 1.6)},
                          {"staff_usd_per_year", g.real(0, 5e5)}, {"node_power_w", g.real(2000, 12000)}};
  d["energy"] = {{"usd_per_kwh", g.real(0.05, 0.3)}, {"grid_kg_co2e_per_kwh", g.real(0, 0.8)},
                 {"cloud_pue", g.real(1, 1.5)}};
  d["campaign"] = {{"runs", g.uniform(1, 6)}, {"runs_per_month", g.coin(0.5) ? 0 : g.uniform(1, 4)}};
}

// The result of a scenario as the CLI prints it, or its error.
std::string result_of(const Json& doc) {
  try {
    const tc::io::Job job = tc::io::parse_job(doc, lib(), "link");
    return tc::io::result_json(job, tc::io::evaluate(job, lib())).dump();
  } catch (const tc::io::InputError& e) {
    return std::string("error: ") + e.what();
  }
}

// Issue 12: a link carries every field that changes the result. A random valid scenario (preset
// model, every cost section) -> link -> scenario evaluates to the same JSON, number for number.
TEST(Properties, ALinkCarriesEveryFieldThatChangesTheResult) {
  Gen g;
  g.rng.seed(12);
  const std::vector<std::string> models = {"llama3.1-8b", "llama3.1-70b", "mixtral-8x7b"};
  const std::vector<std::string> instances = {"p5.48xlarge", "trn2.48xlarge", "trn1.32xlarge", "p4d.24xlarge"};
  int same = 0, with_incidents = 0;
  for (int i = 0; i < 40; ++i) {
    const std::string model = models[static_cast<std::size_t>(i) % models.size()];
    Case c;
    do c = random_valid(g, model, g.pick(instances));
    while (!c.doc["model"].is_string());  // an inline or modified model travels only through a seed
    add_random_cost_sections(g, c.doc);
    const std::string link = tc::io::url_hash(c.doc);
    ASSERT_LE(link.size(), tc::io::kMaxHashLength) << link;
    const Json back = tc::io::parse_url_hash(link, Json::object()).scenario;
    const std::string want = result_of(c.doc);
    ASSERT_EQ(want.rfind("error", 0), std::string::npos) << want << "\n" << c.doc.dump();
    EXPECT_EQ(result_of(back), want) << link;
    same += result_of(back) == want;
    with_incidents += c.doc.contains("incidents");
  }
  EXPECT_EQ(same, 40);
  EXPECT_GT(with_incidents, 10);
}

// Over a seed, a link writes only what differs, and a list (the seed's incidents) travels whole:
// an edited, a shortened and an emptied list all read back to the same result.
TEST(Properties, ASeedLinkCarriesEditedIncidentsAndRegions) {
  const Json seed = tc::io::seed_document("case-a-dense-100b");
  ASSERT_TRUE(seed.is_object());
  ASSERT_TRUE(seed.contains("incidents") && seed["incidents"].size() >= 2) << seed.dump();
  std::vector<Json> edits(5, seed);
  edits[4]["power_limit_w"] = 400;  // below a Trainium2's 500 W: slower, and energy at the cap
  edits[0]["incidents"][1]["days"] = 3;
  edits[1]["incidents"].erase(0);
  edits[2]["incidents"] = Json::array();
  edits[3]["pricing"]["instance_regions"] = {{"trn2.48xlarge", "us-west-2"}, {"p5.48xlarge", "us-west-2"}};
  edits[3]["overheads"]["storage"]["checkpoints_service"] = "fsx_lustre";
  for (const Json& doc : edits) {
    const std::string link = tc::io::url_hash(doc, "case-a-dense-100b");
    const Json back = tc::io::parse_url_hash(link, Json::object()).scenario;
    EXPECT_EQ(result_of(back), result_of(doc)) << link;
    EXPECT_NE(result_of(doc), result_of(seed)) << link;
  }
}

}  // namespace

// What the page shows of a message: scenario paths in plain words, everything else as it was.
TEST(Properties, ShownMessagesNameFieldsInPlainWords) {
  using tc::io::plain_message;
  EXPECT_EQ(plain_message("pricing.region: p5en.48xlarge has no price in us-west-1 (the default region); "
                          "priced in us-east-1, where it is sold (set pricing.region to choose)"),
            "pricing region: p5en.48xlarge has no price in us-west-1 (the default region); "
            "priced in us-east-1, where it is sold (set pricing region to choose)");
  EXPECT_EQ(plain_message("global_batch: 512 is not divisible by micro_batch x dp (48)."),
            "global batch: 512 is not divisible by micro batch x dp (48).");
  EXPECT_EQ(plain_message("pricing.mix[0].tier: unknown"), "pricing mix, entry 1, tier: unknown");
  EXPECT_EQ(plain_message("instance.inter_node_gbps: is 0"), "instance inter node gbps: is 0");
  EXPECT_EQ(plain_message("model.hf_config.n_layer: missing"), "config.json field n_layer: missing");
  EXPECT_EQ(plain_message("no public reserved_3y price; spot 25%"), "no public 3-year Standard RI, no upfront price; spot 25%");
  EXPECT_EQ(plain_message("tp (16) exceeds kv_heads (8): KV heads are replicated"),
            "tp (16) exceeds kv heads (8): KV heads are replicated");
  // Ids, numbers and words that are no scenario path stay.
  for (const char* same : {"p5.48xlarge and ml.p4d.24xlarge, e.g. 1.5 nodes", "nodes: must be >= 1",
                           "trn2.48xlarge", "a.b.c", "", "....", "[0]"})
    EXPECT_EQ(plain_message(same), same);
  EXPECT_EQ(scenario_path_in(plain_message("training.tokens and overheads.storage.dataset_gb")), "");
  EXPECT_EQ(scenario_path_in("see training.tokens"), "training.tokens");
  EXPECT_EQ(scenario_path_in("tp exceeds kv_heads"), "kv_heads");
}
