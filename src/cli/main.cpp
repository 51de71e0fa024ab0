// traincalc command line: estimate a scenario, compare instances, list presets.
// Exit status: 0 success, 2 bad input (one line on stderr naming the field), 1 internal error.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "io/compare.hpp"
#include "io/explain.hpp"
#include "io/job.hpp"
#include "io/presets.hpp"
#include "io/report.hpp"
#include "io/schema.hpp"
#include "io/validation.hpp"

namespace {

constexpr const char* kUsage = R"(traincalc: training time, utilization and memory of a model on a cluster

usage:
  traincalc estimate FILE.json|-|--link URL  [--format json|text|explain|csv|markdown] [--model-config CONFIG.json]
                                            [--presets DIR]
  traincalc compare FILE.json|-|--link URL  [--instances a,b,c] [--format text|csv|json|markdown]
                                            [--model-config CONFIG.json] [--presets DIR]
  traincalc validate RUNS.csv  [--format text|csv|json] [--row ID]
  traincalc validate --batch   [--presets DIR]
  traincalc list accelerators|instances|models|frameworks|fields [--format text|json|markdown] [--presets DIR]
  traincalc --help | --version

estimate  reads a scenario (see README.md, "Scenario files") and prints one JSON result
          (or a readable summary with --format text, how each figure is computed with its
          inputs' sources with explain, the bill's lines as a table with csv or markdown). "-" reads stdin; --link reads a page link (https://.../#v1&m=...) or its hash,
          decoded as the page decodes it. Input over 16 MiB (a file, stdin, a CSV) is refused.
compare   runs the same job on each instance (the plan searched per instance unless fixed, and on
          other chips or node sizes always) and prints a table; without --instances, the file's
          compare_instances.
validate  estimates every published run of a CSV (tests/data/published_runs.csv) and prints
          the signed error on tokens/s per chip, per row and in aggregate; --row ID prints
          the scenario of one row and its estimate. Optional columns: power_limit_w, hbm_gib,
          hbm_tb_per_s, known_issue (tests/data/published_runs.README.md). --batch answers
          requests on stdin, one JSON object a line of at most 64 KiB, {"csv": RUNS.csv,
          "presets": DIR} (presets optional, merged over the others for that request alone), each
          with one line: the rows --format json prints, on one line, or {"error": "..."}; blank
          lines are skipped. For scripts that evaluate many preset variants (scripts/calibrate.py)
          without starting the program each time.
list      prints the preset ids with their names; fields: the scenario's fields (the reference in
          docs/scenario-fields.md is `list fields --format markdown`).
--model-config CONFIG.json  a Hugging Face config.json as the scenario's model: the same as
          writing "model": {"hf_config": {...}} (the scenario's model name and seq_len, if it
          gives them inline, are kept). See docs/hf-config.md.
--presets DIR  merges every *.json preset file in DIR over the built-in presets.
)";

struct Args {
  std::string command;
  std::vector<std::string> positional;
  std::string format;
  std::string presets_dir;
  std::string row_id;
  std::string instances;
  std::string model_config;
  std::string link;
  bool has_link = false;
  bool batch = false;  // validate --batch: requests on stdin
  bool help = false;  // --help or -h anywhere: `traincalc validate --help` asks, it names no file
};

struct UsageError {
  std::string message;
};

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* flag) {
      if (i + 1 >= argc) throw UsageError{std::string(flag) + " needs a value"};
      // An empty value (--presets "" from an unset variable) must not silently mean "none".
      if (argv[i + 1][0] == '\0') throw UsageError{std::string(flag) + " needs a value (got an empty one)"};
      return std::string(argv[++i]);
    };
    if (arg == "--format") {
      a.format = value("--format");
    } else if (arg == "--instances") {
      a.instances = value("--instances");
    } else if (arg == "--row") {
      a.row_id = value("--row");
    } else if (arg == "--model-config") {
      a.model_config = value("--model-config");
    } else if (arg == "--presets") {
      a.presets_dir = value("--presets");
    } else if (arg == "--link") {
      a.link = value("--link");
      a.has_link = true;
    } else if (arg == "--batch") {
      a.batch = true;
    } else if (arg == "--help" || arg == "-h") {
      a.help = true;
    } else if (arg.size() > 1 && arg[0] == '-' && arg != "-" && arg != "--version") {
      throw UsageError{"unknown option " + arg};
    } else if (a.command.empty()) {
      a.command = arg;
    } else {
      a.positional.push_back(arg);
    }
  }
  return a;
}

std::string read_input(const std::string& path) {
  if (path == "-") return tc::io::read_capped(std::cin, "stdin");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw tc::io::InputError(path, "cannot be opened");
  return tc::io::read_capped(f, path);
}

tc::io::PresetLibrary library(const Args& a) {
  tc::io::PresetLibrary lib = tc::io::load_builtin_presets();
  if (!a.presets_dir.empty()) tc::io::merge_preset_dir(lib, a.presets_dir);
  return lib;
}

// With --model-config, the config file's object becomes the scenario's model.hf_config: one path
// for a config given on the command line and one written into the scenario.
tc::io::Job read_job(const Args& a, const tc::io::PresetLibrary& lib) {
  if (a.has_link) {
    if (!a.model_config.empty()) throw UsageError{"--model-config applies to a scenario file, not to --link"};
    return tc::io::parse_job_link(a.link, lib);
  }
  const std::string label = a.positional[0] == "-" ? "stdin" : a.positional[0];
  const std::string text = read_input(a.positional[0]);
  if (a.model_config.empty()) return tc::io::parse_job_text(text, lib, label);
  tc::io::Json doc = tc::io::parse_json(text, label);
  tc::io::require_object(doc, label);
  tc::io::Json model = tc::io::Json::object();
  if (const auto it = doc.find("model"); it != doc.end() && it->is_object()) {
    for (const char* k : {"name", "seq_len"})
      if (it->contains(k)) model[k] = it->at(k);
  }
  model["hf_config"] = tc::io::parse_json(read_input(a.model_config), a.model_config);
  doc["model"] = std::move(model);
  return tc::io::parse_job(doc, lib, label);
}

// A scenario file, or a link (--link), not both.
void need_scenario(const Args& a, const char* command) {
  const std::size_t files = a.has_link ? 0 : 1;
  if (a.positional.size() != files)
    throw UsageError{std::string(command) + (a.has_link ? " takes --link or a scenario file, not both"
                                                        : " needs one scenario file (or -, or --link URL)")};
}

int cmd_estimate(const Args& a) {
  need_scenario(a, "estimate");
  const std::string format = a.format.empty() ? "json" : a.format;
  if (format != "json" && format != "text" && format != "explain" && format != "csv" && format != "markdown")
    throw UsageError{"--format must be json, text, explain, csv or markdown"};
  const auto lib = library(a);
  const auto job = read_job(a, lib);
  const tc::io::Result r = tc::io::evaluate(job, lib);
  if (format == "csv" || format == "markdown") {
    // The bill's lines, for a spreadsheet or a document.
    const tc::io::Table t = tc::io::bill_table(tc::io::cost_of(r));
    std::cout << (format == "csv" ? tc::io::table_csv(t) : tc::io::table_markdown(t));
    return 0;
  }
  if (format == "explain") {
    // What the page shows on hover, as text (io/explain).
    std::cout << tc::io::result_explained(job, r, lib);
    return 0;
  }
  std::cout << (format == "text" ? tc::io::result_text(job, r) : tc::io::result_json(job, r).dump(2) + "\n");
  return 0;
}

std::vector<std::string> split_ids(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  return out;
}

int cmd_compare(const Args& a) {
  need_scenario(a, "compare");
  const std::string format = a.format.empty() ? "text" : a.format;
  if (format != "text" && format != "csv" && format != "json" && format != "markdown")
    throw UsageError{"--format must be text, csv, json or markdown"};
  const auto lib = library(a);
  const auto job = read_job(a, lib);
  const std::vector<std::string> asked = a.instances.empty() ? job.spec.compare_instances : split_ids(a.instances);
  if (!a.instances.empty() && asked.empty()) throw tc::io::InputError("--instances", "lists no instance");
  for (const auto& id : asked) lib.require_instance(id, "--instances");
  const auto rows = tc::io::compare_instances(job, lib, tc::io::comparison_ids(job, asked));
  auto table = tc::io::compare_table(rows, format == "csv" || format == "markdown" ? tc::io::TableStyle::plain
                                                                                  : tc::io::TableStyle::human);
  const auto notes = tc::io::comparison_notes(rows);
  if (format == "json") {
    std::cout << tc::io::compare_json(rows).dump(2) << "\n";
  } else if (format == "csv") {
    std::cout << tc::io::table_csv(table);
  } else if (format == "markdown") {
    std::cout << tc::io::table_markdown(table);
    for (const auto& n : notes) std::cout << "\n- " << n;
    std::cout << (notes.empty() ? "" : "\n");
  } else {
    // Warnings are long: the text table lists them under it, by instance.
    std::vector<std::string> warned;
    for (auto& row : table.rows) {
      for (std::size_t at = 0; !row.back().empty() && at != std::string::npos;) {
        const std::size_t bar = row.back().find(" | ", at);
        warned.push_back(row.front() + ": " + row.back().substr(at, bar == std::string::npos ? bar : bar - at));
        at = bar == std::string::npos ? bar : bar + 3;
      }
      row.pop_back();
    }
    table.header.pop_back();
    std::cout << tc::io::table_text(table);
    for (const auto& n : notes) std::cout << "note: " << n << "\n";
    for (const auto& w : warned) std::cout << "warning: " << tc::io::shown_text(w, 4000) << "\n";
  }
  return 0;
}

// The scenario's fields, one row each (io/schema.hpp).
tc::io::Table fields_table() {
  tc::io::Table t;
  t.header = {"field", "link", "type", "unit", "range", "default", "meaning", "source"};
  for (const auto& f : tc::io::scenario_fields()) {
    std::string type = tc::io::to_string(f.type);
    for (std::size_t i = 0; i < f.values.size(); ++i) type += (i ? ", " : " ") + std::string(f.values[i]);
    const bool ranged = f.min < f.max;
    const std::string low = f.min_positive > 0 ? "0, or " + tc::io::format_number(f.min_positive)
                                               : tc::io::format_number(f.min);
    // A list item's field travels as in.N.hours (the N-th item's).
    std::string link(f.hash_key);
    if (f.path.find("[]") != std::string_view::npos && !link.empty()) link.insert(link.find('.'), ".N");
    t.rows.push_back({std::string(f.path), link, type, std::string(f.unit),
                      ranged ? low + " to " + tc::io::format_number(f.max) : "",
                      std::string(f.default_value), std::string(f.help), std::string(f.source)});
  }
  return t;
}

int cmd_list(const Args& a) {
  if (a.positional.size() != 1) throw UsageError{"list needs accelerators, instances, models, frameworks or fields"};
  const std::string what = a.positional[0];
  const auto lib = library(a);
  tc::io::Table t;
  if (what == "accelerators") {
    t.header = {"id", "name", "bf16_tflops", "hbm_gib", "devices_per_chip"};
    for (const auto& x : lib.accelerators)
      t.rows.push_back({x.id, x.name, tc::io::format_number(x.peak_tflops[2]),
                        tc::io::format_number(x.hbm_gib), std::to_string(x.devices_per_chip)});
  } else if (what == "instances") {
    t.header = {"id", "name", "accelerator", "chips_per_node", "inter_node_gbps"};
    for (const auto& x : lib.instances)
      t.rows.push_back({x.id, x.name, x.accelerator_id, std::to_string(x.chips_per_node),
                        tc::io::format_number(x.inter_node_gbps)});
  } else if (what == "models") {
    t.header = {"id", "name", "kind", "layers", "hidden"};
    for (const auto& x : lib.models)
      t.rows.push_back({x.id, x.name, tc::to_string(x.kind), std::to_string(x.layers),
                        std::to_string(x.hidden)});
  } else if (what == "frameworks") {
    t.header = {"id", "name", "runs_on"};
    for (const auto& x : lib.frameworks) {
      const tc::io::FrameworkInfo* info = lib.framework_info(x.id);
      const char* on = x.runs_on_gpu && x.runs_on_neuron ? "gpu neuron" : x.runs_on_gpu ? "gpu" : "neuron";
      t.rows.push_back({x.id, info ? info->name : "", on});
    }
  } else if (what == "fields") {
    t = fields_table();
  } else {
    throw UsageError{"list: unknown kind '" + what + "' (accelerators, instances, models, frameworks, fields)"};
  }
  const std::string format = a.format.empty() ? "text" : a.format;
  if (format == "json") {
    tc::io::Json arr = tc::io::Json::array();
    for (const auto& r : t.rows) {
      tc::io::Json o;
      for (size_t i = 0; i < t.header.size(); ++i) o[t.header[i]] = r[i];
      arr.push_back(o);
    }
    std::cout << arr.dump(2) << "\n";
  } else if (format == "text") {
    std::cout << tc::io::table_text(t);
  } else if (format == "markdown") {
    std::cout << tc::io::table_markdown(t);
  } else {
    throw UsageError{"--format must be text, json or markdown for list"};
  }
  return 0;
}

// One row of `validate --format json`.
tc::io::Json run_json(const tc::io::RunCheck& c) {
  const tc::io::PublishedRun& r = c.run;
  tc::io::Json notes = tc::io::Json::array();
  for (const auto& n : r.notes) notes.push_back(n);
  return {{"id", r.id}, {"family", r.family}, {"accelerator", r.accelerator},
          {"model", r.model}, {"model_class", c.model_class}, {"framework", r.framework}, {"software", r.software},
          {"measured_tokens_per_s_per_chip", c.measured_tokens_per_s_per_chip},
          {"predicted_tokens_per_s_per_chip", c.predicted_tokens_per_s_per_chip},
          {"band_tokens_per_s_per_chip", {c.band_low_tokens_per_s_per_chip, c.band_high_tokens_per_s_per_chip}},
          {"error", c.error}, {"fits", c.fits}, {"problem", c.problem},
          {"known_issue", r.known_issue}, {"notes", notes}};
}

// A line of stdin up to kMaxRequestBytes, without its line ending; a longer one is read to its end
// and refused.
constexpr std::size_t kMaxRequestBytes = 1 << 16;
bool read_request(std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  int ch = 0;
  bool any = false;
  while ((ch = std::cin.get()) != EOF) {
    any = true;
    if (ch == '\n') break;
    if (line.size() < kMaxRequestBytes) line.push_back(static_cast<char>(ch));
    else too_long = true;
  }
  if (!too_long && !line.empty() && line.back() == '\r') line.pop_back();
  return any;
}

// A request's path: a non-empty string without NUL (which would cut the path short), and not "-":
// stdin carries the requests.
std::string request_path(const tc::io::Json& req, const char* key, const char* what) {
  const auto it = req.find(key);
  const std::string path = it != req.end() && it->is_string() ? it->get<std::string>() : "";
  if (path.empty() || path == "-" || path.find('\0') != std::string::npos)
    throw tc::io::InputError(std::string("request.") + key, std::string("must name ") + what);
  return path;
}

// One request of `validate --batch`: the rows of its CSV, evaluated with its presets merged over
// `base`, as one line of JSON.
tc::io::Json batch_reply(const std::string& line, const tc::io::PresetLibrary& base) {
  const tc::io::Json req = tc::io::parse_json(line, "request");
  tc::io::require_object(req, "request");
  for (const auto& [key, value] : req.items())
    if (key != "csv" && key != "presets") throw tc::io::InputError("request." + key, "is not a request field (csv, presets)");
  const std::string csv = request_path(req, "csv", "the CSV of published runs (a file)");
  tc::io::PresetLibrary lib = base;
  if (req.contains("presets")) tc::io::merge_preset_dir(lib, request_path(req, "presets", "a directory of preset files"));
  std::string text;
  try {
    text = read_input(csv);
  } catch (const tc::io::InputError& e) {
    throw tc::io::InputError("request.csv", e.what());
  }
  tc::io::Json arr = tc::io::Json::array();
  for (const auto& r : tc::io::read_published_runs(text)) arr.push_back(run_json(tc::io::check_run(r, lib)));
  return arr;
}

// Answers every request, a bad one with {"error": ...}, and ends with stdin. Bytes that are not
// UTF-8 (in a path or a CSV cell) are printed as U+FFFD rather than ending the batch.
int cmd_validate_batch(const Args& a) {
  if (!a.positional.empty() || !a.row_id.empty() || !a.format.empty())
    throw UsageError{"validate --batch reads its CSVs from the requests on stdin (no file, --row or --format)"};
  const tc::io::PresetLibrary base = library(a);
  std::string line;
  bool too_long = false;
  while (read_request(line, too_long)) {
    if (line.empty() && !too_long) continue;
    tc::io::Json reply;
    try {
      if (too_long) throw tc::io::InputError("request", "over " + std::to_string(kMaxRequestBytes) + " bytes");
      reply = batch_reply(line, base);
    } catch (const tc::io::InputError& e) {
      reply = {{"error", e.what()}};
    }
    std::cout << reply.dump(-1, ' ', false, tc::io::Json::error_handler_t::replace) << std::endl;
  }
  return 0;
}

int cmd_validate(const Args& a) {
  if (a.batch) return cmd_validate_batch(a);
  if (a.positional.size() != 1) throw UsageError{"validate needs a CSV of published runs"};
  const std::string format = a.format.empty() ? "text" : a.format;
  if (format != "text" && format != "csv" && format != "json") throw UsageError{"--format must be text, csv or json"};
  const auto lib = library(a);
  const auto runs = tc::io::read_published_runs(read_input(a.positional[0]));
  if (!a.row_id.empty()) {
    for (const auto& r : runs) {
      if (r.id != a.row_id) continue;
      const auto doc = tc::io::scenario_for_run(r, lib);
      const auto job = tc::io::parse_job(doc, lib, r.id);
      const tc::io::Result res = tc::io::evaluate(job, lib, tc::io::kVariantOptions);
      std::cout << doc.dump(2) << "\n\n" << tc::io::estimate_text(job.spec, res.est, res.band)
                << "measured " << r.measured_tokens_per_s_per_chip << " tokens/s per chip\n";
      return 0;
    }
    throw tc::io::InputError("--row", "no row '" + a.row_id + "'");
  }
  tc::io::Table t;
  t.header = {"id", "family", "accelerator", "model", "measured", "predicted", "error_pct", "problem"};
  tc::io::Json arr = tc::io::Json::array();
  std::vector<tc::io::RunCheck> checks;
  for (const auto& r : runs) {
    const auto c = tc::io::check_run(r, lib);
    checks.push_back(c);
    char err[32];
    std::snprintf(err, sizeof err, "%+.1f", 100 * c.error);
    t.rows.push_back({r.id, r.family, r.accelerator, r.model,
                      tc::io::format_number(c.measured_tokens_per_s_per_chip),
                      tc::io::format_number(c.predicted_tokens_per_s_per_chip),
                      c.problem.empty() ? err : "", c.problem});
    arr.push_back(run_json(c));
  }
  if (format == "json") {
    std::cout << arr.dump(2) << "\n";
  } else if (format == "csv") {
    std::cout << tc::io::table_csv(t);
  } else {
    const auto sum = tc::io::summarize(checks);
    std::cout << tc::io::table_text(t);
    std::cout << "\n" << tc::io::summary_line(sum) << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args a = parse_args(argc, argv);
    if (a.help || a.command == "help") {
      std::cout << kUsage;
      return 0;
    }
    if (a.command.empty()) {
      std::cout << kUsage;
      return 2;
    }
    if (a.command == "--version") {
      std::cout << "traincalc 0.1.0\n";
      return 0;
    }
    if (a.command == "estimate") return cmd_estimate(a);
    if (a.command == "list") return cmd_list(a);
    if (a.command == "validate") return cmd_validate(a);
    if (a.command == "compare") return cmd_compare(a);
    throw UsageError{"unknown command '" + a.command + "' (estimate, compare, validate, list; see --help)"};
  } catch (const UsageError& e) {
    std::cerr << "error: " << e.message << "\n";
    return 2;
  } catch (const tc::io::InputError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return 1;
  }
}
