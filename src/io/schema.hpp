// The scenario's own fields, one row each: the parser reads its range and default from the row,
// the URL hash carries it under the row's key, the editor takes its range and help from it, and
// docs/scenario-fields.md is generated from the table (`traincalc list fields --format markdown`).
// Adding a field is one row here plus what the model does with it. The cost sections (pricing
// tiers, overheads, campaign, incidents, owned cluster, energy, claims) are read by io/cost_json
// with the ranges of their rows. A row of a list's items is written "incidents[].hours"; a link
// writes it in.<i>.hours.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tc::io {

enum class FieldType {
  id,            // a preset id (model and instance also take an inline object)
  id_list,       // preset ids
  integer,
  integer_auto,  // an integer, or "auto" for the plan search
  number,
  number_auto,
  enumeration,   // one of `values`
  flag,          // true or false
  flag_auto,     // true, false or "auto"
  price_mix,     // pricing tiers with shares (io/cost_json)
  id_map,        // an object of id -> id (pricing.instance_regions)
  text,
  section,       // an object of further fields
  list,          // a list of objects
};
const char* to_string(FieldType t);

struct FieldDef {
  std::string_view path;           // dotted path in a scenario document
  std::string_view hash_key;       // its key in a v1 link; empty: links carry it only through a seed
  FieldType type;
  std::string_view unit;
  double min = 0, max = 0;         // integer and number types
  std::string_view default_value;  // when the scenario leaves it out, as the reference states it
  std::string_view help;
  std::string_view source;         // where the default comes from
  std::vector<std::string_view> values = {};  // enumeration
  std::string_view excludes = {};  // the field this one stands instead of (nodes or chips)
  // > 0: the value is 0 or at least this (a training amount of 1e-300 tokens would make the cost
  // per token overflow).
  double min_positive = 0;
};

// In the order links write their keys.
const std::vector<FieldDef>& scenario_fields();
// The row of a path; an unknown path is a programming error (std::logic_error).
const FieldDef& scenario_field(std::string_view path);
// Top-level keys of a scenario document, in the table's order.
const std::vector<std::string_view>& scenario_keys();

// A message as a person reads it on the page: every scenario path in it ("pricing.region",
// "pricing.mix[0].tier", "global_batch"), model field ("kv_heads") and pricing tier id
// ("reserved_3y") in plain words (core/labels); a config.json key stays as the file names it
// ("model.hf_config.n_layer" -> "config.json field n_layer"). Messages keep the
// paths for the CLI and the JSON output, where they name what to edit in the file.
std::string plain_message(std::string_view message);

}  // namespace tc::io
