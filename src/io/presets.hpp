// The preset library: accelerators, instances, models and framework profiles, built in from
// presets/*.json and extendable with the user's own files. Every value keeps its source (text,
// date, confidence) so that the UI can show where any figure comes from.
//
// The parse functions below are the reference for the file schemas; each presets/*.json also
// says what its fields mean in its "about" text.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/cost.hpp"
#include "core/types.hpp"
#include "io/json_util.hpp"
#include "io/uncertainty.hpp"

namespace tc::io {

// One entry of a preset's "sources": which fields it backs, and how well.
struct SourceNote {
  std::string kind;                 // "accelerator", "instance", "model", "framework", "service"
  std::string id;                   // the entry's id
  std::vector<std::string> fields;  // "peak_tflops" covers "peak_tflops.bf16" and so on
  std::string cite;                 // primary source, with URL or document name
  std::string date;                 // YYYY-MM-DD: publication, snapshot or check date
  std::string confidence;           // "H", "M" or "L" (see shared/reference/hardware.md)
  std::string file;                 // the preset file it came from
};

// Preset fields that the core structs do not carry: they serve the UI, cost reports and tests.
struct ModelInfo {
  std::string id;
  double published_params = 0;         // as published (paper, model card, checkpoint)
  double published_active_params = 0;  // MoE only; 0 when not published or dense
};
struct InstanceInfo {
  std::string id;
  std::string price_note;                  // why a price tier is missing, if one is
};
struct FrameworkInfo {
  std::string id;
  std::string name;
};

struct PresetLibrary {
  std::vector<Accelerator> accelerators;
  std::vector<Instance> instances;
  std::vector<ModelShape> models;
  std::vector<FrameworkProfile> frameworks;
  std::vector<ServicePrice> services;   // storage and transfer prices (presets/services.json)
  std::vector<SourceNote> notes;
  std::vector<ModelInfo> model_infos;
  std::vector<InstanceInfo> instance_infos;
  std::vector<FrameworkInfo> framework_infos;
  BandTable bands;  // the error bands: load_builtin_presets sets presets/accuracy/uncertainty.json
  std::vector<std::string> files;  // labels of the files merged, in order

  // nullptr when unknown.
  const Accelerator* accelerator(std::string_view id) const;
  const Instance* instance(std::string_view id) const;
  const ModelShape* model(std::string_view id) const;
  const FrameworkProfile* framework(std::string_view id) const;
  const ModelInfo* model_info(std::string_view id) const;
  const InstanceInfo* instance_info(std::string_view id) const;
  const FrameworkInfo* framework_info(std::string_view id) const;

  // Throw InputError(field, "unknown model 'x'; nearest: ...") when unknown.
  const Accelerator& require_accelerator(std::string_view id, const std::string& field) const;
  const Instance& require_instance(std::string_view id, const std::string& field) const;
  const ModelShape& require_model(std::string_view id, const std::string& field) const;
  const FrameworkProfile& require_framework(std::string_view id, const std::string& field) const;

  std::vector<std::string> accelerator_ids() const;
  std::vector<std::string> instance_ids() const;
  std::vector<std::string> model_ids() const;
  std::vector<std::string> framework_ids() const;
  // The frameworks that run on `a`'s platform (FrameworkProfile::runs_on_*).
  std::vector<std::string> framework_ids_on(const Accelerator& a) const;

  // Notes of one entry; with a field ("intra.latency_us"), only those covering it.
  std::vector<const SourceNote*> sources_for(std::string_view kind, std::string_view id,
                                             std::string_view field = {}) const;
};

// The presets compiled into the program (presets/*.json; scenarios are not presets).
PresetLibrary load_builtin_presets();
// The keys of a model preset, and of a scenario's inline model object ("kv_heads", "ffn_hidden").
const std::vector<std::string_view>& model_keys();

// Adds one preset file, recognised by its "schema". Entries with a known id replace it, new ids
// are appended. On error, throws InputError naming the file and JSON path, e.g.
// "presets/instances.json: instances[3].prices[0].price_usd_per_hour: must be >= 0 (got -1)",
// and leaves `lib` unchanged.
void merge_preset_json(PresetLibrary& lib, const std::string& file_label, const std::string& text);

// Operator preset files as a set, all or nothing, in one documented order that the CLI
// (--presets DIR) and the page (presets.json) share: files by name (the part after the last '/',
// byte order), then by kind (accelerators, instances, models, frameworks: an instance may use an
// accelerator of any file); an entry of a later file replaces an earlier one with the same id.
struct PresetText {
  std::string label;  // the file's path, named in errors
  std::string text;
};
void merge_preset_set(PresetLibrary& lib, std::vector<PresetText> files);

// Merges every *.json in `dir` as merge_preset_set does.
void merge_preset_dir(PresetLibrary& lib, const std::string& dir);

// Single entries. `path` prefixes every error field. A preset entry (inline_object false) must
// give every field of its schema, including "sources". An inline object (a model or instance
// written into a scenario) needs only what defines it; the rest takes these defaults:
//   accelerator: needs peak_tflops (other precisions 0 = unsupported), hbm_gib, hbm_tb_per_s;
//     id "custom", devices_per_chip 1, power_w 0 (unknown), no stochastic rounding,
//     calibration as AcceleratorCalibration's defaults.
//   instance: needs accelerator, chips_per_node, inter_node_gbps; links as Fabric's defaults
//     (which parse_inline_instance replaces with those of a preset of the same accelerator).
//   model: needs layers, hidden, ffn_hidden, heads, and seq_len and vocab (decoder, encoder) or
//     image_size, patch_size, num_classes (vit). kind decoder; kv_heads = heads; decoders are
//     gated, bias-free, rotary and untied; encoders and ViTs use GeLU, biases and learned
//     positions (one per token); encoders tie embeddings; no dropout; dense.
//   framework: every field optional, FrameworkProfile's defaults.
Accelerator parse_accelerator(const Json& j, const std::string& path, bool inline_object = false);
Instance parse_instance(const Json& j, const std::string& path, bool inline_object = false);
ModelShape parse_model(const Json& j, const std::string& path, bool inline_object = false);
FrameworkProfile parse_framework(const Json& j, const std::string& path,
                                 bool inline_object = false);

// Inline objects in scenarios, resolved against the library. Each accepts "base": a preset id
// to start from, so that {"base": "llama3.1-8b", "seq_len": 2048} changes one field.
Accelerator parse_inline_accelerator(const Json& j, const std::string& path,
                                     const PresetLibrary& lib);
ModelShape parse_inline_model(const Json& j, const std::string& path, const PresetLibrary& lib);
FrameworkProfile parse_inline_framework(const Json& j, const std::string& path,
                                        const PresetLibrary& lib);
// An inline instance: "accelerator" is a preset id or an inline accelerator object; it may also
// set "devices_per_chip", which overrides the accelerator's. Without "base", links (intra, inter)
// and host power come from a preset instance with the same accelerator (the first with the same
// chips_per_node, else the first with chip-to-chip links), and the instance has no prices unless
// it lists some; with "base", everything comes from that preset, prices too.
// `acc_out` receives the resolved accelerator.
Instance parse_inline_instance(const Json& j, const std::string& path, const PresetLibrary& lib,
                               Accelerator& acc_out);

}  // namespace tc::io
