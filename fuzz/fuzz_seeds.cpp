// Writes the fuzz seed corpora and dictionaries, generated from the built-in presets and seed
// scenarios (so nothing binary is committed and the seeds follow the presets):
//   OUT/scenario/   every seed scenario; every preset model on every preset instance; variants
//                   with a fixed plan (the one the search picks), chips, inline shapes, LoRA,
//                   samples and epochs, pricing mixes
//   OUT/presets/    every preset file, and each entry alone in a file of its schema
//   OUT/url_hash/   the hash of every seed scenario (with and without its seed), and short hashes
//                   for every model and instance
//   OUT/validate/   the published-runs CSV's header with each of its rows (and all of them)
//   OUT/compare/    a mask byte and a seed scenario or a model-on-instance scenario
//   OUT/scenario.dict, OUT/url_hash.dict, OUT/validate.dict, OUT/compare.dict   libFuzzer
//                   dictionaries (keys, ids, enum values)
// usage: fuzz_seeds OUT PUBLISHED_RUNS.csv
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <set>
#include <string>

#include "io/embedded.hpp"
#include "io/presets.hpp"
#include "io/schema.hpp"
#include "io/scenario.hpp"
#include "io/url_state.hpp"

namespace fs = std::filesystem;
using tc::io::Json;

namespace {

int counter = 0;

void write(const fs::path& dir, const std::string& name, const std::string& text) {
  fs::create_directories(dir);
  std::ofstream(dir / (std::to_string(++counter) + "-" + name), std::ios::binary) << text;
}

void write_dict(const fs::path& file, const std::set<std::string>& tokens) {
  std::ofstream out(file, std::ios::binary);
  for (const auto& t : tokens) {
    std::string esc;
    for (const char c : t) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x7f) {  // libFuzzer reads \xNN escapes; a raw byte would break the line
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\x%02X", u);
        esc += hex;
        continue;
      }
      if (c == '"' || c == '\\') esc += '\\';
      esc += c;
    }
    out << '"' << esc << "\"\n";
  }
}

std::string stem(const std::string& path) { return fs::path(path).stem().string(); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: fuzz_seeds OUT PUBLISHED_RUNS.csv\n";
    return 2;
  }
  const fs::path out = argv[1];
  const fs::path scen = out / "scenario", pres = out / "presets", url = out / "url_hash";
  const tc::io::PresetLibrary lib = tc::io::load_builtin_presets();
  std::set<std::string> scen_dict = {"{", "}", "[", "]", ":", ",", "\"", "true", "false", "null",
                                     "\"auto\"", "1e15", "-1", "0", "1e308", "NaN", "\"\\u0000\""};
  std::set<std::string> url_dict = {"#v1", "&", "=", "auto", "%", "%00", ",", ":"};

  // Seed scenarios and preset files, as shipped.
  std::vector<std::string> seed_ids;
  for (const auto& f : tc::io::embedded_presets()) {
    const std::string path = f.path;
    if (path.rfind("presets/scenarios/", 0) == 0) {
      write(scen, stem(path) + ".json", f.contents);
      seed_ids.push_back(stem(path));
      continue;
    }
    write(pres, stem(path) + ".json", f.contents);
    // Each entry alone, with its id kept (replacing a preset) and changed (adding one).
    const Json doc = Json::parse(f.contents);
    for (auto it = doc.begin(); it != doc.end(); ++it) {
      if (!it.value().is_array()) continue;
      for (const Json& entry : it.value()) {
        Json one = {{"schema", doc.value("schema", "")}, {it.key(), Json::array({entry})}};
        const std::string id = entry.value("id", "entry");
        write(pres, stem(path) + "-" + id + ".json", one.dump());
        one[it.key()][0]["id"] = "fuzz-" + id;
        write(pres, stem(path) + "-new-" + id + ".json", one.dump());
      }
    }
  }

  // Dictionaries: every key of the schemas and scenarios, every id.
  for (const auto& k : tc::io::scenario_keys()) scen_dict.insert("\"" + std::string(k) + "\"");
  std::function<void(const Json&)> keys_of = [&](const Json& j) {
    if (j.is_object())
      for (auto it = j.begin(); it != j.end(); ++it) {
        scen_dict.insert("\"" + it.key() + "\"");
        keys_of(it.value());
      }
    if (j.is_array())
      for (const auto& x : j) keys_of(x);
    if (j.is_string() && j.get<std::string>().size() <= 24) scen_dict.insert(j.dump());
  };
  for (const auto* files : {&tc::io::embedded_presets(), &tc::io::embedded_validation_presets()})
    for (const auto& f : *files) {
      Json doc = Json::parse(f.contents);
      if (doc.contains("about")) doc.erase("about");
      keys_of(doc);
    }
  for (const auto& id : lib.model_ids()) url_dict.insert(id);
  for (const auto& id : lib.instance_ids()) url_dict.insert(id);
  // Every key a link carries (the schema table's), the first item of a list (in.0.kind), s, embed.
  for (const auto& f : tc::io::scenario_fields()) {
    if (f.hash_key.empty()) continue;
    std::string k(f.hash_key);
    if (f.path.find("[]") != std::string_view::npos) k.insert(k.find('.'), ".0");
    url_dict.insert("&" + k + "=");
  }
  for (const char* k : {"s", "embed"}) url_dict.insert(std::string("&") + k + "=");
  for (const char* v : {"on_demand", "reserved_1y", "reserved_3y", "capacity_block", "spot", "custom",
                        ":fb=", ":u=", ":d=", "48i", "pretrain", "full_finetune", "lora", "none",
                        "selective", "full", "fp8", "bf16", "fp32", "1e12"})
    url_dict.insert(v);
  for (const auto& s : seed_ids) url_dict.insert("s=" + s);

  // Every model on every instance: auto plan, and the plan the search picks, fixed.
  int fixed = 0;
  for (const auto& m : lib.model_ids()) {
    for (const auto& i : lib.instance_ids()) {
      Json doc = {{"model", m}, {"instance", i}, {"nodes", 2}, {"training", {{"tokens", 1e11}}}};
      write(scen, m + "-" + i + ".json", doc.dump());
      write(url, m + "-" + i, "#v1&m=" + m + "&i=" + i + "&n=2&tt=1e11");
      try {
        const auto spec = tc::io::parse_scenario(doc, lib, "seed");
        const tc::Estimate e = tc::io::run_estimate(spec);
        const tc::ParallelPlan& p = e.plan;
        doc["parallel"] = {{"tp", p.tp}, {"pp", p.pp}, {"dp", p.dp}, {"cp", p.cp}, {"ep", p.ep},
                           {"vpp", p.vpp}, {"sequence_parallel", p.sequence_parallel}, {"zero", p.zero}};
        doc["micro_batch"] = p.micro_batch;
        doc["recompute"] = tc::to_string(p.recompute);
        write(scen, m + "-" + i + "-fixed.json", doc.dump());
        ++fixed;
      } catch (const tc::io::InputError&) {
      }
    }
  }

  // Variants that reach the other branches of the reader.
  const char* variants[] = {
      R"({"model":"llama3.1-8b","instance":"p5.48xlarge","chips":4,"training":{"tokens":1e9}})",
      R"({"model":"llama3.1-70b","instance":"gb200-nvl72","chips":256,"training":{"tokens":1e12}})",
      R"({"model":{"layers":4,"hidden":512,"ffn_hidden":1376,"heads":8,"kv_heads":2,"seq_len":1024,"vocab":32000},"instance":"trn2.48xlarge","training":{"tokens":1e9}})",
      R"({"model":{"base":"mixtral-8x7b","moe_experts":16,"moe_top_k":4},"instance":"p5.48xlarge","nodes":4,"parallel":{"ep":"auto"},"training":{"tokens":1e10}})",
      R"({"model":"llama3.1-8b","instance":{"accelerator":"h100-sxm","chips_per_node":8,"inter_node_gbps":3200,"devices_per_chip":1},"nodes":2,"training":{"tokens":1e10}})",
      R"({"model":"llama3.1-8b","instance":{"accelerator":{"base":"trainium2","hbm_gib":48},"chips_per_node":16,"inter_node_gbps":3200},"training":{"tokens":1e10}})",
      R"({"model":"llama3.1-8b","instance":"trn1.32xlarge","training":{"mode":"lora","lora_rank":64,"tokens":1e9},"framework":"neuronx-distributed"})",
      R"({"model":"bert-large","instance":"p4d.24xlarge","training":{"mode":"full_finetune","samples":1e6,"epochs":3}})",
      R"({"model":"vit-l16","instance":"p5.48xlarge","global_batch":4096,"precision":"fp8","training":{"samples":1.28e6,"epochs":300}})",
      R"({"model":"llama3.1-70b","instance":"p5.48xlarge","nodes":16,"parallel":{"tp":8,"pp":4,"dp":4,"vpp":2,"sequence_parallel":true,"zero":1},"micro_batch":1,"global_batch":512,"recompute":"full","flash_attention":false,"master_weights":false,"training":{"tokens":1e12}})",
      R"({"model":"llama3.1-8b","instance":"p5.48xlarge","nodes":8,"training":{"tokens":1e11},"pricing":{"mix":[{"tier":"on_demand","fraction":0.2},{"tier":"spot","fraction":0.5,"discount":0.6},{"tier":"custom","fraction":0.3,"usd_per_hour":20}]},"deadline_days":10,"baseline_instance":"trn2.48xlarge"})",
      R"({"model":"llama3.1-8b","instance":"trn2.48xlarge","nodes":4,"training":{"tokens":1e11},"pricing":{"mix":[{"tier":"reserved_3y","instances":3},{"tier":"spot","instances":1}]},"owned_cluster":{"nodes":4,"capex_usd_per_node":300000},"energy":{"usd_per_kwh":0.2},"campaign":{"runs":5,"full_runs":2,"truncated_fraction":0.1}})",
      R"({"model":"llama3.1-8b","instance":"p5.48xlarge","claims":[{"text":"x","wall_time_days":3,"bill_usd":1e6,"tflops_per_chip":600,"mfu":0.5}],"training":{"tokens":1e11}})",
  };
  for (const char* v : variants) write(scen, "variant.json", v);

  // URL hashes of the seed scenarios, with and without the seed.
  for (const auto& s : seed_ids) {
    const Json doc = tc::io::seed_document(s);
    write(url, s, tc::io::url_hash(doc, s));
    write(url, s + "-full", tc::io::url_hash(doc));
    write(url, s + "-embed", tc::io::url_hash(doc, s, true));
  }
  const char* hashes[] = {
      "#v1&m=llama3.1-70b&i=trn2.48xlarge&c=trn2.48xlarge,p5.48xlarge&n=16&tt=1e12",
      "#v1&s=default&tp=8&pp=auto&dp=auto&zero=1&sp=1&mb=auto&rc=selective",
      "#v1&m=llama3.1-8b&i=p5.48xlarge&ch=4&tm=lora&lr=32&tt=1e9&fa=0&mw=1",
      "#v1&m=bert-large&i=p4d.24xlarge&ts=1e6&te=3&p=fp16&gb=256",
      "#v1&s=default&pr=on_demand:0.2,spot:0.5:d=0.6,custom:0.3:u=20&sd=0.7&dl=30&bl=p5.48xlarge",
      "#v1&s=default&pr=reserved_3y:48i,spot:16i:fb=on_demand",
      "#v1&s=default&o.compile.first_s=600&o.checkpoint.interval_min=auto&o.queue_hours=4&k.runs=3&e.usd_per_kwh=0.2",
      "#embed=1",
      "",
  };
  for (const char* h : hashes) write(url, "hash", h);

  // validate: the header with each row; compare: a mask byte before a scenario.
  std::ifstream runs(argv[2], std::ios::binary);
  std::string header, row, all;
  std::getline(runs, header);
  std::set<std::string> csv_dict = {",", "\"", "\r\n", "\xEF\xBB\xBF", "auto", "yes", "no"};
  for (std::size_t start = 0; start <= header.size();) {
    const auto comma = header.find(',', start);
    csv_dict.insert(header.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  while (std::getline(runs, row)) {
    write(out / "validate", "row.csv", header + "\n" + row + "\n");
    all += row + "\n";
  }
  write(out / "validate", "all.csv", header + "\n" + all);
  for (const auto& s : seed_ids) {
    const Json doc = tc::io::seed_document(s);
    for (const char mask : {'\0', '\x03', '\xff'}) write(out / "compare", s + ".json", std::string(1, mask) + doc.dump());
  }
  for (const auto& m : lib.model_ids())
    write(out / "compare", m + ".json",
          std::string(1, '\x05') + Json{{"model", m}, {"instance", "p5.48xlarge"}, {"training", {{"tokens", 1e11}}}}.dump());

  write_dict(out / "validate.dict", csv_dict);
  write_dict(out / "compare.dict", scen_dict);
  write_dict(out / "scenario.dict", scen_dict);
  write_dict(out / "presets.dict", scen_dict);
  write_dict(out / "url_hash.dict", url_dict);
  std::printf("fuzz_seeds: %d files in %s (%d scenarios with a fixed plan)\n", counter,
              out.string().c_str(), fixed);
  return 0;
}
