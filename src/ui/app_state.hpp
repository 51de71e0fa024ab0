// All state of the calculator in one struct (as hello_imgui does), and the few operations on it
// that panels and the platform call. The scenario being edited is a scenario document (the JSON
// of a scenario file): import, export, the URL hash and the CLI all read the same thing, so the
// page and `traincalc estimate` cannot drift apart. Results are recomputed only when that
// document (or the preset library) changes; comparison and scaling points run in small slices
// per frame so that dragging a slider stays fluid.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "io/explain.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"

namespace tc::ui {

// What differs between the browser and the desktop window, as seen by the panels.
class Host {
 public:
  virtual ~Host() = default;
  virtual bool is_web() const = 0;
  virtual void copy_text(const std::string& text) = 0;
  // Web: a download through a Blob; desktop: writes `name` (a path) and reports errors.
  virtual void save_file(const std::string& name, const std::string& mime, const std::string& data) = 0;
  // Web: opens the file picker, the text arrives later through import_scenario().
  virtual void request_open_file() = 0;
  virtual void set_location_hash(const std::string& hash) = 0;
  virtual std::string link_for(const std::string& hash) = 0;
  virtual void publish_results(const std::string& mirror_json) = 0;
};

// A host that does nothing: for tests and for the first frames before the platform is ready.
class NullHost : public Host {
 public:
  bool is_web() const override { return false; }
  void copy_text(const std::string& text) override { copied = text; }
  void save_file(const std::string& name, const std::string&, const std::string& data) override {
    saved_name = name;
    saved = data;
  }
  void request_open_file() override {}
  void set_location_hash(const std::string& hash) override { location_hash = hash; }
  std::string link_for(const std::string& hash) override { return "traincalc" + hash; }
  void publish_results(const std::string& mirror_json) override { mirror = mirror_json; }
  std::string copied, saved_name, saved, location_hash, mirror;
};

// One job evaluated (io/job.hpp), or the error that stopped it.
struct Outcome : io::Result {
  bool ok = false;
  std::string error;        // the InputError message, naming the field
  std::string error_field;
  // A global batch no plan splits (global_batch_exact): the nearest fixes, one click each.
  std::optional<BatchFixes> batch_fixes;
  io::Job job;
  double compute_ms = 0;
};

struct ComparisonRow {
  std::string instance_id;
  bool done = false;
  Outcome out;
  // While a control is held, `out` is a preview with this estimate's plan (the row's searched
  // one) kept.
  std::optional<Estimate> held;
};

struct ScalingPoint {
  int nodes = 1;
  bool done = false;
  Outcome out;
};

struct SeedCase {
  std::string id;           // "case-a" for presets/scenarios/case-a.json
  std::string name, description;
  io::Json doc;
  // Its claims' verdict counts ("46 claims: 12 ok, ..."), computed once when time allows (update()).
  bool verdicts_done = false;
  std::string verdicts;
};

struct Banner {
  std::string text;
  bool error = true;
  bool import = false;  // an import that failed: a later successful import clears it
};

// Persistent view settings: panel visibility as plain flags.
struct ViewSettings {
  bool embed = false;
  bool show_breakdown = true, show_memory = true, show_bill = true, show_comparison = true,
       show_scaling = true, show_seeds = true, show_sources = false;
  int scaling_max_nodes = 0;           // 0: four times the current count, at least 8
  std::string model_filter, instance_filter;
  std::string desktop_path = "scenario.json";
  bool nodes_as_chips = false;
};

struct AppState {
  io::PresetLibrary lib;
  std::uint64_t lib_generation = 1;
  std::vector<SeedCase> seeds;
  // The seeds panel has been opened: only then are the cases' claims checked (one case a frame,
  // after the comparison and scaling), so that no drag waits on a seed case nobody looks at.
  bool seeds_wanted = false;

  io::Json doc;                        // the scenario being edited
  std::string seed_id;                 // the seed it came from ("" for none): the link's base

  // Results of `doc`.
  std::uint64_t computed_key = 0;
  Outcome current;                     // may hold an error
  Outcome last_good;                   // shown (dimmed) while `current` has an error
  io::Json last_good_doc;              // the scenario last_good came from
  bool has_good = false;
  std::vector<ComparisonRow> comparison;
  std::uint64_t comparison_key = 0;
  std::vector<ScalingPoint> scaling;
  std::uint64_t scaling_key = 0;
  std::map<std::uint64_t, Outcome> cache;
  // While a control is held (a slider dragged), the scenario is evaluated with the last good
  // plan kept (only data parallelism follows the cluster) and without the baseline's plan: no
  // plan search, so every frame stays short. The full search runs when the control is released.
  bool interacting = false;            // set by draw_app: an item is active
  bool pointer_held = false;           // set by the frame before update: the primary button is down
  bool preview = false;                // `current` is such an estimate

  std::string hash_error;              // a link that could not be read: the last good scenario stays
  std::uint64_t hash_error_key = 0;    // the scenario it was kept for: an edit clears the error
  std::vector<Banner> banners;         // preset files and imports that failed
  std::string published_hash;
  std::string status;                  // last action ("Link copied", "Saved scenario.json")

  ViewSettings view;
  Host* host = nullptr;
  NullHost null_host;

  bool log_text = false;               // tests: log every drawn text (see draw_app)
  // Tests (with log_text): the explanation of every figure drawn in the last frame (explain_last).
  std::vector<io::Explanation> explained;
  int estimates_run = 0;
  double last_update_ms = 0;
  // Publishing to the page is throttled (see update()).
  bool hash_dirty = false, mirror_dirty = false;
  std::chrono::steady_clock::time_point last_hash_publish{}, last_mirror_publish{};
};

// The product's main question: Llama 3.1 70B on trn2.48xlarge against p5.48xlarge.
io::Json default_scenario();

// Built-in presets and seed cases, the default scenario.
void init(AppState& s, Host* host);

// The seed picker's entries, (seed id, name): the page's default scenario ("") first, then every
// seed case but presets/scenarios/default.json, which asks the default's question again.
std::vector<std::pair<std::string, std::string>> seed_choices(const AppState& s);

// Replaces the scenario (an import, a seed, a hash); the results follow on the next update().
void set_scenario(AppState& s, io::Json doc, const std::string& seed_id);

// Reads a location.hash. On a bad hash, sets hash_error and keeps the scenario; returns false.
bool apply_hash(AppState& s, const std::string& hash);
std::string current_hash(const AppState& s);
bool link_is_exact(const AppState& s);

// An operator's preset file: merged over the library, or a banner naming file and field.
bool merge_presets(AppState& s, const std::string& label, const std::string& text);
// The −/+ of the global batch and of the node count: the next value up (direction > 0) or down on
// which the scenario's global batch splits over a plan (the nearest divisor or multiple), not the
// next integer.
void step_field(AppState& s, const std::string& path, int direction);
// Picks the instance; a framework chosen earlier that does not run on its platform (Megatron on
// Trainium, NeuronX Distributed on a GPU) gives way to the platform's default, so the pick never
// lands on an error.
void set_instance(AppState& s, const std::string& id);
// The framework ids that run on the accelerator of `instance` (all when it is unknown).
std::vector<std::string> frameworks_for(const AppState& s, const std::string& instance);

// The operator's preset files as one set (io::merge_preset_set: the CLI's order), all or nothing.
bool merge_preset_set(AppState& s, std::vector<io::PresetText> files);
// A scenario file: replaces the scenario if it parses, else a banner.
bool import_scenario(AppState& s, const std::string& label, const std::string& text);
std::string export_scenario(const AppState& s);

// Recomputes what changed: the scenario at once, comparison and scaling points while time
// remains of `budget_ms`. Publishes the URL hash and the DOM mirror when results change.
void update(AppState& s, double budget_ms);
bool work_pending(const AppState& s);

// The outcome shown: the current one, or the last good one while the current has an error.
const Outcome* shown(const AppState& s);

// Exports: the comparison (or the single result) as a table.
io::Table results_table(const AppState& s);
// The DOM mirror and the test hook's view of the results.
io::Json mirror_json(const AppState& s);

// Dotted-path access to the scenario document for the editor.
const io::Json* doc_get(const io::Json& doc, const std::string& path);
void doc_set(io::Json& doc, const std::string& path, io::Json value);
void doc_erase(io::Json& doc, const std::string& path);

}  // namespace tc::ui
