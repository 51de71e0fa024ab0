// Scenario files: the job a user describes (model, instance, cluster size, plan, training amount)
// read into core structs, with "auto" knobs left to the plan search. Format: README.md#scenario.
#pragma once

#include <string>
#include <vector>

#include "core/plan_search.hpp"
#include "core/types.hpp"
#include "io/json_util.hpp"
#include "io/presets.hpp"
#include "io/schema.hpp"

namespace tc::io {

struct ScenarioSpec {
  Scenario scenario;            // fixed knobs filled; searched ones hold placeholders
  PlanRequest request;          // which knobs the plan search chooses
  std::string name, description, source;
  std::string model_id, instance_id;  // preset ids, or "custom"
  int requested_chips = 0;      // when the file gave "chips" rather than "nodes"
  int node_chips = 0;           // the instance's chips per node, before part of one is taken
  bool framework_given = false; // else the accelerator's default framework
  std::vector<std::string> compare_instances;
  std::string compare_at;       // "chips" or "nodes": what comparison rows keep equal ("": as the
                                // cluster is stated, chips when the file gave chips)
  // What the estimate is told about the inputs, in this order: the model, the cluster (a part of a node,
  // partly filled nodes), the training amount, the rounding of BF16 master weights.
  std::vector<std::string> model_notes;  // a model from a config.json: what it approximates
  std::string cluster_warning;
  std::vector<std::string> training_warnings;
  std::string rounding_warning;
  std::string framework_warning;  // a comparison row on another platform: its default framework
};

ScenarioSpec parse_scenario(const Json& doc, const PresetLibrary& lib, const std::string& label);
ScenarioSpec parse_scenario_text(const std::string& text, const PresetLibrary& lib,
                                 const std::string& label);

// The same job on another instance: cluster size kept in chips when the file gave chips (whole
// nodes where the new node size does not divide them), otherwise in nodes; data parallelism and
// the default framework follow the new cluster, and so does a chosen framework that does not run
// on the new platform (with a warning). On other hardware (another chip, or another number of
// devices a node) the plan search chooses every knob: a fixed plan is one for its own hardware.
ScenarioSpec with_instance(const ScenarioSpec& spec, const PresetLibrary& lib,
                           const std::string& instance_id);
// Whether `to` is other hardware than `from` for a plan: another chip or devices a node.
bool other_plan_hardware(const Scenario& from, const Scenario& to);
// The request with every plan knob left to the search, keeping
// what is not a plan knob (exact_global_batch); fixes_plan: whether `r` fixes any knob.
PlanRequest searched_plan(const PlanRequest& r);
bool fixes_plan(const PlanRequest& r);
// The same job on `nodes` whole nodes of its instance; data parallelism follows.
ScenarioSpec with_nodes(const ScenarioSpec& spec, int nodes);

// Resolves auto knobs (or checks a fixed plan) and estimates. Throws InputError naming the field
// when the plan is invalid or no plan is possible; a global batch that splits over no plan (with
// global_batch_exact) names the nearest fixes, which global_batch_fixes() gives as data.
Estimate run_estimate(const ScenarioSpec& spec);
BatchFixes global_batch_fixes(const ScenarioSpec& spec);

}  // namespace tc::io
