#include "ui/app_state.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "io/compare.hpp"
#include "io/embedded.hpp"
#include "io/hf_config.hpp"
#include "io/report.hpp"
#include "io/schema.hpp"
#include "io/url_state.hpp"
#include "ui/format.hpp"
#include "ui/mirror.hpp"

namespace tc::ui {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t seed) {
  std::uint64_t h = 1469598103934665603ull ^ seed;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

std::uint64_t key_of(const AppState& s, const io::Json& doc) {
  return fnv1a(doc.dump(), s.lib_generation * 0x9e3779b97f4a7c15ull);
}

// The drag preview: everything but the baseline instance's own plan search.
constexpr io::EvaluateOptions kPreviewOptions{true, false};

// Evaluates the job `make` returns; an error of either is the outcome.
template <class MakeJob>
Outcome outcome_of(MakeJob make, const io::PresetLibrary& lib, const io::EvaluateOptions& options) {
  const auto t0 = Clock::now();
  Outcome o;
  bool parsed = false;
  try {
    o.job = make();
    parsed = true;
    static_cast<io::Result&>(o) = io::evaluate(o.job, lib, options);
    o.ok = true;
  } catch (const io::InputError& e) {
    o.error = e.what();
    o.error_field = e.field();
    if (parsed && o.error_field == "global_batch") o.batch_fixes = io::global_batch_fixes(o.job.spec);
  } catch (const std::exception& e) {
    o.error = std::string("internal error: ") + e.what();
  }
  o.compute_ms = ms_since(t0);
  return o;
}

template <class MakeJob>
const Outcome& evaluate_cached(AppState& s, std::uint64_t key, MakeJob make,
                               const io::EvaluateOptions& options = {}) {
  auto it = s.cache.find(key);
  if (it != s.cache.end()) return it->second;
  // The cache holds what one session explores; past that, start over rather than grow.
  if (s.cache.size() > 600) s.cache.clear();
  ++s.estimates_run;
  return s.cache.emplace(key, outcome_of(make, s.lib, options)).first->second;
}

const Outcome& evaluate_doc(AppState& s, const io::Json& doc) {
  return evaluate_cached(s, key_of(s, doc), [&] { return io::parse_job(doc, s.lib, "scenario"); });
}

std::vector<std::string> compare_ids(const AppState& s, const Outcome& base) {
  std::vector<std::string> ids;
  if (const io::Json* c = doc_get(s.doc, "compare_instances"); c && c->is_array())
    for (const auto& x : *c)
      if (x.is_string() && std::find(ids.begin(), ids.end(), x.get<std::string>()) == ids.end())
        ids.push_back(x.get<std::string>());
  return io::comparison_ids(base.job, ids);
}

int scaling_limit(const AppState& s, int nodes) {
  if (s.view.scaling_max_nodes > 0) return s.view.scaling_max_nodes;
  int n = 8;
  while (n < 4 * nodes && n < 4096) n *= 2;
  return n;
}

void rebuild_jobs(AppState& s) {
  const Outcome& base = s.current;
  const std::uint64_t key = s.computed_key;
  if (s.comparison_key != key) {
    s.comparison.clear();
    for (const auto& id : compare_ids(s, base)) s.comparison.emplace_back().instance_id = id;
    s.comparison_key = key;
  }
  if (s.scaling_key != key) {
    s.scaling.clear();
    const int nodes = base.job.spec.scenario.nodes;
    const int limit = scaling_limit(s, nodes);
    std::vector<int> points;
    for (int n = 1; n <= limit; n *= 2) points.push_back(n);
    if (std::find(points.begin(), points.end(), nodes) == points.end()) points.push_back(nodes);
    std::sort(points.begin(), points.end());
    for (int n : points) s.scaling.emplace_back().nodes = n;
    s.scaling_key = key;
  }
}

// One pending comparison or scaling point; false when none is left.
bool run_one_job(AppState& s) {
  const io::Job& job = s.current.job;
  for (auto& row : s.comparison) {
    if (row.done) continue;
    const std::uint64_t key = fnv1a("instance " + row.instance_id, s.computed_key);
    row.out = evaluate_cached(s, key, [&] { return io::compare_job(job, s.lib, row.instance_id); }, io::kVariantOptions);
    row.done = true;
    return true;
  }
  for (auto& p : s.scaling) {
    if (p.done) continue;
    const std::uint64_t key = fnv1a("nodes " + std::to_string(p.nodes), s.computed_key);
    p.out = evaluate_cached(s, key, [&] { return io::job_on_nodes(job, p.nodes); }, io::kVariantOptions);
    p.done = true;
    return true;
  }
  for (auto& c : s.seeds) {
    if (c.verdicts_done || !s.seeds_wanted) continue;
    const Outcome& o = evaluate_doc(s, c.doc);
    c.verdicts = !o.ok ? "not evaluated: " + io::plain_message(o.error)
                 : o.cost && !o.cost->claims.empty() ? describe(count_verdicts(o.cost->claims))
                                                      : "no claims";
    c.verdicts_done = true;
    return true;
  }
  return false;
}

// The scenario being dragged, read again unless only its node count changed: then the last good
// job on the new count, without reading any JSON.
io::Job dragged_job(const AppState& s) {
  const io::Json* n = doc_get(s.doc, "nodes");
  if (n && n->is_number_integer() && !s.doc.contains("chips") && s.last_good.job.spec.requested_chips == 0) {
    io::Json a = s.doc, b = s.last_good_doc;
    a.erase("nodes");
    b.erase("nodes");
    if (a == b) return io::job_on_nodes(s.last_good.job, n->get<int>());
  }
  return io::parse_job(s.doc, s.lib, "scenario");
}

// `job` with as much of `plan` kept as suits it (io::PlanKept, cheapest first; a frame's
// budget holds one estimate per instance, not a whole plan search), else with its plan searched.
Outcome with_plan_kept(const io::Job& job, const Estimate& searched, const io::PresetLibrary& lib,
                       const io::EvaluateOptions& options) {
  Outcome o;
  for (const auto kept : {io::PlanKept::whole, io::PlanKept::micro_batch_one, io::PlanKept::tensor_parallel}) {
    o = outcome_of([&] { return io::job_with_plan(job, searched, kept); }, lib, options);
    if (o.ok) return o;
  }
  return outcome_of([&] { return job; }, lib, options);
}

// The compared instances follow a held control too, each with its own searched plan kept. The
// release searches every row again.
void preview_comparison(AppState& s, const io::Job& job) {
  for (auto& row : s.comparison) {
    if (!row.held && row.done && row.out.ok) row.held = row.out.est;
    if (!row.held) continue;  // still pending when the drag began: it waits for the release
    row.out = row.instance_id == job.spec.instance_id
                  ? s.current
                  : with_plan_kept(io::compare_job(job, s.lib, row.instance_id), *row.held, s.lib,
                                   io::kVariantOptions);
  }
  s.comparison_key = 0;
}

// While a control is held: the dragged scenario with as much of the last good plan kept as
// suits it, or its problem (the last good result stays, dimmed under it).
void preview(AppState& s) {
  io::Job job;
  try {
    job = dragged_job(s);
  } catch (const io::InputError&) {
    // Its problem, as the release will show it.
    s.current = outcome_of([&] { return dragged_job(s); }, s.lib, kPreviewOptions);
    return;
  }
  s.current = with_plan_kept(job, s.last_good.est, s.lib, kPreviewOptions);
  preview_comparison(s, job);  // the job as dragged: each row keeps a plan of its own
}

io::Json load_seed_doc(const io::EmbeddedFile& f) {
  try {
    return io::parse_json(f.contents, f.path);
  } catch (const io::InputError&) {
    return nullptr;
  }
}

}  // namespace

io::Json default_scenario() {
  return io::Json{{"name", "Llama 3.1 70B: Trainium2 vs H100"},
                  {"model", "llama3.1-70b"},
                  {"instance", "trn2.48xlarge"},
                  {"nodes", 16},
                  {"precision", "bf16"},
                  {"training", {{"tokens", 1e12}}},
                  {"compare_instances", {"trn2.48xlarge", "p5.48xlarge"}}};
}

void init(AppState& s, Host* host) {
  s.host = host ? host : &s.null_host;
  try {
    s.lib = io::load_builtin_presets();
  } catch (const io::InputError& e) {
    s.banners.push_back({std::string("built-in presets: ") + e.what(), true});
  }
  s.seeds.clear();
  const std::string prefix = "presets/scenarios/";
  for (const auto& f : io::embedded_presets()) {
    const std::string path = f.path;
    if (path.rfind(prefix, 0) != 0 || path.size() < prefix.size() + 6) continue;
    SeedCase c;
    c.id = path.substr(prefix.size(), path.size() - prefix.size() - 5);
    c.doc = load_seed_doc(f);
    if (!c.doc.is_object()) continue;
    c.name = c.doc.value("name", c.id);
    c.description = c.doc.value("description", "");
    s.seeds.push_back(std::move(c));
  }
  set_scenario(s, default_scenario(), "");
}

std::vector<std::pair<std::string, std::string>> seed_choices(const AppState& s) {
  std::vector<std::pair<std::string, std::string>> v = {{"", "Default: Llama 3.1 70B, Trn2 vs H100"}};
  for (const auto& c : s.seeds)
    if (c.id != "default") v.emplace_back(c.id, c.name);
  return v;
}

void set_scenario(AppState& s, io::Json doc, const std::string& seed_id) {
  s.doc = std::move(doc);
  s.seed_id = seed_id;
  s.view.nodes_as_chips = s.doc.contains("chips");
}

bool apply_hash(AppState& s, const std::string& hash) {
  try {
    io::UrlState st = io::parse_url_hash(hash, io::Json::object());
    s.view.embed = st.embed;
    s.hash_error.clear();
    s.mirror_dirty = true;
    if (st.has_scenario) {
      set_scenario(s, std::move(st.scenario), st.seed);
    } else if (s.doc.is_null()) {
      set_scenario(s, default_scenario(), "");
    }
    // The page shows the link as given: republishing would rewrite what the user pasted.
    s.published_hash = hash.empty() || hash[0] == '#' ? hash : "#" + hash;
    return true;
  } catch (const io::InputError& e) {
    s.hash_error_key = key_of(s, s.doc);
    s.mirror_dirty = true;
    s.hash_error = std::string("This link could not be read (") + e.what() +
                   "); the last good scenario is kept.";
    return false;
  }
}

std::string current_hash(const AppState& s) { return io::url_hash(s.doc, s.seed_id, s.view.embed); }

bool link_is_exact(const AppState& s) {
  io::Json doc = s.doc;
  if (s.seed_id.empty())
    for (const char* k : {"name", "description", "source"}) doc.erase(k);
  return io::hash_reproduces(doc, current_hash(s), io::Json::object());
}

std::vector<std::string> frameworks_for(const AppState& s, const std::string& instance) {
  const Instance* in = s.lib.instance(instance);
  const Accelerator* a = in ? s.lib.accelerator(in->accelerator_id) : nullptr;
  return a ? s.lib.framework_ids_on(*a) : s.lib.framework_ids();
}

void set_instance(AppState& s, const std::string& id) {
  doc_set(s.doc, "instance", id);
  const io::Json* fw = doc_get(s.doc, "framework");
  if (!fw || !fw->is_string()) return;
  const auto ok = frameworks_for(s, id);
  if (std::find(ok.begin(), ok.end(), fw->get<std::string>()) == ok.end()) doc_erase(s.doc, "framework");
}

void step_field(AppState& s, const std::string& path, int direction) {
  // The scenario as it reads now (also when its batch does not split), else the last good one.
  const Outcome* o = s.current.ok || s.current.batch_fixes ? &s.current : shown(s);
  const io::Json* v = doc_get(s.doc, path);
  if (!o) {
    // Nothing resolved to step from: one step from the value shown.
    const double now = v && v->is_number() ? v->get<double>() : 1;
    doc_set(s.doc, path, std::max(1.0, now + direction));
    return;
  }
  Scenario sc = o->job.spec.scenario;
  if (v && v->is_number()) {
    if (path == "global_batch") sc.global_batch = static_cast<long long>(v->get<double>());
    else sc.nodes = static_cast<int>(v->get<double>());
  }
  if (path == "global_batch") {
    doc_set(s.doc, path, step_global_batch(sc, o->job.spec.request, direction));
  } else {
    doc_erase(s.doc, "chips");
    doc_set(s.doc, "nodes", step_nodes(sc, o->job.spec.request, direction));
  }
}

bool merge_presets(AppState& s, const std::string& label, const std::string& text) {
  return merge_preset_set(s, {{label, text}});
}

bool merge_preset_set(AppState& s, std::vector<io::PresetText> files) {
  const std::string label = files.size() == 1 ? files[0].label : "a preset file";
  try {
    io::merge_preset_set(s.lib, std::move(files));
    ++s.lib_generation;
    s.cache.clear();
    return true;
  } catch (const io::InputError& e) {
    s.banners.push_back({std::string("Preset file not used: ") + e.what() +
                             ". The built-in presets stay in use.",
                         true});
    return false;
  } catch (const std::exception& e) {
    s.banners.push_back({"Preset file " + label + " not used: " + e.what(), true});
    return false;
  }
}

bool import_scenario(AppState& s, const std::string& label, const std::string& text) {
  bool config = false;
  try {
    io::Json doc = io::parse_json(text, label);
    // A Hugging Face config.json becomes the model of the scenario shown; the rest stays.
    config = io::is_hf_config_document(doc);
    if (config) {
      io::Json scenario = s.doc;
      scenario["model"] = io::Json::object();
      scenario["model"]["hf_config"] = std::move(doc);
      doc = std::move(scenario);
    }
    io::parse_scenario(doc, s.lib, label);  // reject it whole rather than show a broken scenario
    set_scenario(s, std::move(doc), "");
    s.status = (config ? "Model read from " : "Imported ") + label;
    s.banners.erase(std::remove_if(s.banners.begin(), s.banners.end(), [](const Banner& b) { return b.import; }),
                    s.banners.end());
    return true;
  } catch (const io::InputError& e) {
    s.banners.push_back(
        {std::string(config ? "Model config not imported: " : "Scenario not imported: ") + e.what(), true, true});
    return false;
  }
}

std::string export_scenario(const AppState& s) { return s.doc.dump(2) + "\n"; }

void update(AppState& s, double budget_ms) {
  const auto t0 = Clock::now();
  const std::uint64_t key = key_of(s, s.doc);
  bool computed = false;
  if (key != s.computed_key || (s.preview && !s.interacting)) {
    if (!s.hash_error.empty() && key != s.hash_error_key) s.hash_error.clear();
    s.preview = false;
    if (s.interacting && s.has_good && key != s.computed_key) {
      preview(s);
      s.preview = true;
    }
    s.computed_key = key;
    if (!s.preview) {
      s.current = evaluate_doc(s, s.doc);
      if (s.current.ok) {
        s.last_good = s.current;
        s.last_good_doc = s.doc;
        s.has_good = true;
        rebuild_jobs(s);
      }
    }
    computed = true;
    s.hash_dirty = s.mirror_dirty = true;
  }
  // Comparison and scaling wait while a control is held, and from the press that may start a
  // drag (the control is active only once the frame is drawn): a drag's first frame then runs no
  // plan search left from the last release. A frame that searched a plan searches no more.
  bool worked = false;
  while (s.current.ok && !s.preview && !s.interacting && !s.pointer_held && !computed && ms_since(t0) < budget_ms &&
         run_one_job(s)) {
    worked = true;
    if (budget_ms < 1e6) break;  // one plan search per frame: each takes ~15 ms in WebAssembly
  }
  if (worked) s.mirror_dirty = true;

  // Chromium drops history.replaceState past ~100 calls in 10 s: typing publishes at 4 Hz at
  // most, and a drag on its release (a replaceState took up to 30 ms of a drag's frame in
  // headless Chromium, beyond the 8 ms frame budget of docs/performance.md).
  const auto now = Clock::now();
  if (s.hash_dirty && s.hash_error.empty() && !s.interacting &&
      std::chrono::duration<double, std::milli>(now - s.last_hash_publish).count() > 250) {
    const std::string h = current_hash(s);
    if (h != s.published_hash) {
      s.host->set_location_hash(h);
      s.published_hash = h;
    }
    s.hash_dirty = false;
    s.last_hash_publish = now;
  }
  // The mirror (an aria-live region) waits for the release of a held control: a screen reader
  // is not read every step of a drag, and a drag's frames stay short.
  if (s.mirror_dirty && !s.interacting &&
      (!work_pending(s) || std::chrono::duration<double, std::milli>(now - s.last_mirror_publish).count() > 100)) {
    s.host->publish_results(mirror_json(s).dump());
    s.mirror_dirty = false;
    s.last_mirror_publish = now;
  }
  s.last_update_ms = ms_since(t0);
}

bool work_pending(const AppState& s) {
  if (!s.current.ok) return false;
  if (s.preview) return true;
  for (const auto& r : s.comparison)
    if (!r.done) return true;
  for (const auto& p : s.scaling)
    if (!p.done) return true;
  for (const auto& c : s.seeds)
    if (!c.verdicts_done && s.seeds_wanted) return true;
  return false;
}

const Outcome* shown(const AppState& s) {
  if (s.current.ok) return &s.current;
  return s.has_good ? &s.last_good : nullptr;
}

io::Table results_table(const AppState& s) {
  // The rows `traincalc compare` would print (io::compare_table), from the results on the page.
  std::vector<io::CompareRow> rows;
  auto add = [&](const std::string& id, const Outcome& o) {
    io::CompareRow r;
    r.instance_id = id;
    r.job = o.job;
    r.result = o;
    if (!o.ok) r.problem = o.error;
    else if (!o.cost) r.problem = o.cost_error ? o.cost_error->what() : "no cost model";
    rows.push_back(std::move(r));
  };
  for (const auto& c : s.comparison)
    if (c.done) add(c.instance_id, c.out);
  if (rows.empty())
    if (const Outcome* o = shown(s)) add(o->job.spec.instance_id, *o);
  io::mark_fastest_and_cheapest(rows);
  return io::compare_table(rows, io::TableStyle::plain);
}

io::Json mirror_json(const AppState& s) {
  io::Json j;
  j["ok"] = s.current.ok;
  j["error"] = s.current.ok ? "" : io::plain_message(s.current.error);
  j["hash_error"] = io::plain_message(s.hash_error);
  j["pending"] = work_pending(s);
  j["estimates_run"] = s.estimates_run;
  const Outcome* o = shown(s);
  io::Json rows = io::Json::array();
  auto add = [&](const char* key, const char* label, double v, std::string text) {
    rows.push_back({{"key", key}, {"label", label}, {"value", std::isfinite(v) ? io::Json(v) : io::Json(nullptr)},
                    {"text", std::move(text)}, {"exact", fmt_exact(v)}});
  };
  if (o) {
    const Estimate& e = o->est;
    const auto& sc = o->job.spec.scenario;
    std::string summary = sc.model.name + " on " + std::to_string(sc.nodes) + " x " + o->job.spec.instance_id +
                          " (" + std::to_string(e.chips) + " chips): training " + fmt_duration(e.train_time_s) +
                          ", MFU " + fmt_percent(e.mfu);
    add("step_time_s", "Step time", e.step_time_s, fmt_duration(e.step_time_s));
    add("tokens_per_s", "Throughput (tokens/s)", e.tokens_per_s, fmt_si(e.tokens_per_s));
    add("tokens_per_s_per_chip", "Tokens/s per chip", e.tokens_per_s_per_chip, fmt_si(e.tokens_per_s_per_chip));
    add("mfu", "MFU", e.mfu, fmt_percent(e.mfu));
    add("train_time_s", "Training time", e.train_time_s, fmt_duration(e.train_time_s));
    add("memory_total_gib", "Memory per device", e.memory.total_gib, fmt_gib(e.memory.total_gib));
    add("memory_capacity_gib", "Device capacity", e.memory.capacity_gib, fmt_gib(e.memory.capacity_gib));
    add("max_micro_batch", "Largest micro-batch that fits", e.memory.max_micro_batch,
        std::to_string(e.memory.max_micro_batch));
    add("chips", "Chips", e.chips, std::to_string(e.chips));
    if (o->cost) {
      const auto& r = o->cost->result;
      add("wall_time_s", "Wall time", r.wall.total_s, fmt_duration(r.wall.total_s));
      const double bill = r.bill.priced ? r.bill.total_usd : NAN;
      add("cost_usd", "Total bill", bill, fmt_usd(bill));
      const double per_m = r.bill.priced && r.bill.tokens > 0 ? r.bill.usd_per_million_tokens : NAN;
      add("usd_per_million_tokens", "Cost per 1M tokens", per_m, fmt_usd(per_m));
      summary += ", wall time " + fmt_duration(r.wall.total_s) + ", bill " + fmt_usd(bill);
    }
    j["summary"] = (s.current.ok ? "" : "(last good scenario) ") + summary;
    j["model"] = o->job.spec.model_id;
    j["instance"] = o->job.spec.instance_id;
    j["nodes"] = sc.nodes;
  } else {
    j["summary"] = "No result: " + io::plain_message(s.current.error);
  }
  j["rows"] = rows;
  const io::Table t = results_table(s);
  j["comparison"] = {{"header", t.header}, {"rows", t.rows}};
  add_mirror_details(j, s);
  return j;
}

const io::Json* doc_get(const io::Json& doc, const std::string& path) {
  const io::Json* cur = &doc;
  std::size_t start = 0;
  for (;;) {
    const auto dot = path.find('.', start);
    const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!cur->is_object()) return nullptr;
    const auto it = cur->find(part);
    if (it == cur->end()) return nullptr;
    cur = &*it;
    if (dot == std::string::npos) return cur;
    start = dot + 1;
  }
}

void doc_set(io::Json& doc, const std::string& path, io::Json value) {
  io::Json* cur = &doc;
  std::size_t start = 0;
  for (;;) {
    const auto dot = path.find('.', start);
    const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!cur->is_object()) *cur = io::Json::object();
    if (dot == std::string::npos) {
      (*cur)[part] = std::move(value);
      return;
    }
    cur = &(*cur)[part];
    start = dot + 1;
  }
}

void doc_erase(io::Json& doc, const std::string& path) {
  const auto dot = path.rfind('.');
  if (dot == std::string::npos) {
    if (doc.is_object()) doc.erase(path);
    return;
  }
  io::Json* parent = const_cast<io::Json*>(doc_get(doc, path.substr(0, dot)));
  if (parent && parent->is_object()) {
    parent->erase(path.substr(dot + 1));
    // An emptied section goes too, so that the link and the file stay minimal.
    if (parent->empty()) doc_erase(doc, path.substr(0, dot));
  }
}

}  // namespace tc::ui
