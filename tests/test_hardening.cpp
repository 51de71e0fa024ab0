// Hostile input by class (issue 14): one property test per class of defect, over random inputs
// from every entry point that reaches the class (scenario file, validate CSV row, link).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <optional>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "core/params.hpp"
#include "io/embedded.hpp"
#include "io/job.hpp"
#include "io/json_util.hpp"
#include "io/presets.hpp"
#include "io/schema.hpp"
#include "io/url_state.hpp"
#include "io/validation.hpp"
#include "support.hpp"

namespace {

using tc::io::InputError;
using tc::io::Json;

using tc_test::lib;

// The job evaluated and printed as the CLI prints it; an InputError is the expected failure.
Json run_text(const std::string& text) {
  const auto job = tc::io::parse_job_text(text, lib(), "test.json");
  return tc::io::result_json(job, tc::io::evaluate(job, lib()));
}

// Every number of a printed result finite, below 1e200 in magnitude and not -0.
void expect_sane_numbers(const Json& j, const std::string& path, const std::string& input) {
  if (j.is_number()) {
    const double v = j.get<double>();
    EXPECT_TRUE(std::isfinite(v) && std::fabs(v) < 1e200) << path << " = " << v << " for " << input;
    EXPECT_FALSE(v == 0 && std::signbit(v)) << path << " is -0 for " << input;
  } else if (j.is_object()) {
    for (const auto& [k, v] : j.items()) expect_sane_numbers(v, path + "." + k, input);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) expect_sane_numbers(j[i], path + "[" + std::to_string(i) + "]", input);
  }
}

// Runs `f`, which must either succeed or throw InputError naming one of `fields` (a prefix match:
// "parallel" names parallel.*); anything else (another exception, a crash) fails the test.
void expect_ok_or_names(const std::function<void()>& f, const std::vector<std::string>& fields,
                        const std::string& input) {
  try {
    f();
  } catch (const InputError& e) {
    const bool named = std::any_of(fields.begin(), fields.end(), [&](const std::string& x) {
      return e.field().find(x) != std::string::npos || x.find(e.field()) == 0;
    });
    EXPECT_TRUE(named && !e.field().empty() && !e.reason().empty()) << e.what() << " for " << input;
  }
}

const char* const kDegrees[] = {"tp", "pp", "dp", "cp", "ep", "vpp"};

// A degree that overflows the products of the others in 32 bits, or fits.
int big_degree(std::mt19937_64& rng) {
  const int choices[] = {1, 2, 3, 8, 65536, 65537, 1 << 19, 1 << 20, 1000000};
  return choices[rng() % std::size(choices)];
}

}  // namespace

// Class 1: products of degrees and counts from a file, a validate row and a link never wrap: the
// plan is refused with an error naming a degree, the cluster or the batch (never a SIGFPE, a
// negative pipeline or an internal error).
TEST(Hardening, OverflowingDegreesFromEveryEntryNameTheField) {
  std::mt19937_64 rng(14);
  const std::vector<std::string> fields = {"parallel", "micro_batch", "global_batch", "nodes", "chips"};
  for (int i = 0; i < 150; ++i) {
    Json doc = {{"model", "llama3.1-8b"}, {"instance", "p5.48xlarge"}, {"training", {{"tokens", 1e9}}}};
    doc["nodes"] = static_cast<int>(rng() % 2 ? 1 : 125000);
    Json par = Json::object();
    std::string hash = "#v1&m=llama3.1-8b&i=p5.48xlarge&tt=1e9&n=" + doc["nodes"].dump();
    std::string csv_degrees;
    for (const char* k : kDegrees) {
      const int v = big_degree(rng);
      par[k] = v;
      hash += std::string("&") + k + "=" + std::to_string(v);
      csv_degrees += std::to_string(v) + ",";
    }
    doc["parallel"] = par;
    const int mb = big_degree(rng);
    doc["micro_batch"] = mb;
    hash += "&mb=" + std::to_string(mb);
    const std::string text = doc.dump();
    expect_ok_or_names([&] { expect_sane_numbers(run_text(text), "", text); }, fields, text);
    expect_ok_or_names([&] { tc::io::evaluate(tc::io::parse_job_link(hash, lib()), lib()); },
                       {"pp", "tp", "dp", "cp", "ep", "vpp", "mb", "n (nodes)"}, hash);
    // The same degrees in a published-runs row (tp,pp,dp,cp,ep,vpp columns).
    const std::string csv =
        "id,model,layers,hidden,ffn_hidden,heads,kv_heads,seq_len,vocab,accelerator,chips,chips_per_node,"
        "devices_per_chip,precision,tp,pp,dp,cp,ep,vpp,micro_batch,global_batch,measured_tokens_per_s_per_chip\n"
        "row1,Llama,32,4096,14336,32,8,8192,128256,h100-sxm," +
        std::to_string(8 * doc["nodes"].get<int>()) + ",8,1,bf16," + csv_degrees + std::to_string(mb) + ",1024,1000\n";
    const auto runs = tc::io::read_published_runs(csv);
    ASSERT_EQ(runs.size(), 1u);
    const auto check = tc::io::check_run(runs[0], lib());
    if (!check.problem.empty()) {
      const bool named = std::any_of(fields.begin(), fields.end(),
                                     [&](const std::string& f) { return check.problem.rfind(f, 0) == 0; });
      EXPECT_TRUE(named) << check.problem << " for " << csv;
    } else {
      EXPECT_TRUE(std::isfinite(check.predicted_tokens_per_s_per_chip)) << csv;
    }
  }
}

// Class 1, the instances the issue found: pp x vpp wrapping to 0, tp x cp = 0, a huge cell in a
// CSV row.
TEST(Hardening, WrappingProductsAreReportedOnTheirKnob) {
  auto error_of = [](const std::string& text) {
    try {
      run_text(text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string base = R"({"model":"llama3.1-8b","instance":"p5.48xlarge","training":{"tokens":1e9},)";
  // 65536 x 65536 = 2^32 wraps an int to 0: the divisor of layers % (pp x vpp).
  EXPECT_EQ(error_of(base + R"("nodes":1,"parallel":{"pp":65536,"vpp":65536}})"),
            "parallel.pp: pp = 65536 exceeds the 8 devices of the cluster");
  EXPECT_EQ(error_of(base + R"("nodes":125000,"parallel":{"pp":1000,"vpp":1048576}})"),
            "parallel.vpp: pp x vpp = 1048576000 exceeds layers + 2 (32 layers, embedding and loss)");
  // tp x cp wrapped to 0 and was printed as "tp x cp = 0".
  EXPECT_EQ(error_of(base + R"("parallel":{"tp":65536,"cp":65536}})"),
            "parallel.tp: tp = 65536 exceeds the 8 devices of the cluster");
  // Fixed degrees whose product does not divide the devices: 3 of 8.
  EXPECT_EQ(error_of(base + R"("parallel":{"tp":1,"pp":3}})"),
            "parallel.pp: pp = 3 does not divide the 8 devices of the cluster");
  EXPECT_EQ(tc::count_product({1 << 20, 1 << 20, 1 << 20, 1 << 20}), tc::kCountCap);
  EXPECT_EQ(tc::count_product({65536, 65536}), 4294967296LL);
  // A 1e300 cell in a CSV row was cast to long long (undefined); now the field's range says no.
  const auto runs = tc::io::read_published_runs(
      "id,model,layers,hidden,ffn_hidden,heads,kv_heads,seq_len,vocab,accelerator,chips,chips_per_node,tp,"
      "measured_tokens_per_s_per_chip\nr,Llama,32,4096,14336,32,8,8192,128256,h100-sxm,8,1e300,1e300,1000\n");
  const auto check = tc::io::check_run(runs[0], lib());
  EXPECT_NE(check.problem.find("must be <="), std::string::npos) << check.problem;
}

namespace {

// A numeric scenario path and a document it can be set in (its parent's other fields valid).
struct NumericField {
  std::string path;
  Json doc;  // the scenario with the field's section present
};

std::vector<NumericField> numeric_fields() {
  const Json base = {{"model", "llama3.1-8b"}, {"instance", "p5.48xlarge"}, {"training", {{"tokens", 1e9}}}};
  std::vector<NumericField> out;
  for (const auto& f : tc::io::scenario_fields()) {
    const bool numeric = f.type == tc::io::FieldType::integer || f.type == tc::io::FieldType::integer_auto ||
                         f.type == tc::io::FieldType::number || f.type == tc::io::FieldType::number_auto;
    if (!numeric) continue;
    Json d = base;
    std::string path(f.path);
    if (f.path == "training.samples" || f.path == "training.epochs") d["training"] = {{"samples", 1000}};
    if (f.path == "training.lora_rank") d["training"]["mode"] = "lora";
    // The cost sections' rows (io/cost_json.cpp reads them with the table's ranges): each inside
    // what it needs to be read at all.
    if (path.rfind("owned_cluster.", 0) == 0) d["owned_cluster"] = {{"capex_usd_per_node", 300000}};
    if (path == "pricing.usd_per_hour" || path == "pricing.discount") d["pricing"] = {{"tier", "custom"}, {"discount", 0.1}};
    if (const auto items = path.find("[]"); items != std::string::npos) {
      const std::string list = path.substr(0, items), field = path.substr(items + 3);
      Json item = Json::object();
      if (list == "incidents")
        item = field == "hours"      ? Json{{"kind", "oom"}, {"hours", 1}}
               : field == "progress" ? Json{{"kind", "failed_runs"}, {"fraction", 0.1}}
                                     : Json{{"kind", "throughput_regression"}, {"fraction", 0.1}, {"days", 1}};
      if (field.rfind("collective.", 0) == 0) item = {{"collective", {{"bytes", 1e9}, {"time_s", 1}}}};
      d[list] = Json::array({item});
      path = list + "[0]." + field;
    }
    out.push_back({path, d});
  }
  return out;
}

// Sets a dotted path ("overheads.storage.dataset_gb"); a part "incidents[0]" is an item of a list.
void set_dotted(Json& doc, const std::string& path, const Json& v) {
  Json* cur = &doc;
  std::size_t start = 0;
  for (;;) {
    const auto dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    const auto open = part.find('[');
    if (open != std::string::npos) {
      const std::size_t index = std::stoul(part.substr(open + 1));
      cur = &(*cur)[part.substr(0, open)][index];
      part.clear();
    }
    if (dot == std::string::npos) {
      (part.empty() ? *cur : (*cur)[part]) = v;
      return;
    }
    if (!part.empty()) cur = &(*cur)[part];
    start = dot + 1;
  }
}

}  // namespace

// Class 2: every numeric scenario and cost field, given a denormal, -0, a negative, an absurd
// value or a NaN-like string, parses to a bounded value or fails naming that field; no result is
// NaN, inf, -0 or near 1e300.
TEST(Hardening, EveryNumericFieldIsBoundedAtParseTime) {
  const std::vector<Json> values = {5e-324, 1e-310, -0.0, -1, 1e300, 1e-300, "nan", "1e999", "-0"};
  const auto fields = numeric_fields();
  ASSERT_GT(fields.size(), 50u);
  for (const auto& f : fields) {
    for (const auto& v : values) {
      Json d = f.doc;
      set_dotted(d, f.path, v);
      const std::string text = d.dump();
      // Denormals never reach the model: the shared reader refuses them.
      if (v.is_number() && std::fpclassify(v.get<double>()) == FP_SUBNORMAL) {
        try {
          run_text(text);
          ADD_FAILURE() << "accepted a denormal: " << text;
        } catch (const InputError& e) {
          EXPECT_EQ(e.field(), f.path) << e.what();
        }
        continue;
      }
      expect_ok_or_names([&] { expect_sane_numbers(run_text(text), "", text); }, {f.path}, text);
    }
  }
}

// Class 2: the link carries numbers through the same check.
TEST(Hardening, LinkNumbersGetTheSameCheck) {
  for (const char* bad : {"n=5e-324", "tt=1e-310", "o.checkpoint.interval_min=1e-320", "k.runs=4e-324"}) {
    const std::string hash = std::string("#v1&m=llama3.1-8b&i=p5.48xlarge&") + bad;
    try {
      tc::io::parse_job_link(hash, lib());
      ADD_FAILURE() << "accepted " << hash;
    } catch (const InputError& e) {
      EXPECT_EQ(e.field().substr(0, std::string(bad).find('=')), std::string(bad).substr(0, std::string(bad).find('=')))
          << e.what();
    }
  }
}

// Class 3: a rate that would come out 0 or near it is an error on the input behind it.
TEST(Hardening, ZeroRatesAreReportedOnTheirInput) {
  auto field_of = [](const std::string& text) {
    try {
      run_text(text);
    } catch (const InputError& e) {
      return e.field();
    }
    return std::string("no error");
  };
  const std::string t = R"(,"training":{"tokens":1e9}})";
  // A100 has no FP8 (NVIDIA A100 datasheet): the precision, not the step time.
  EXPECT_EQ(field_of(R"({"model":"llama3.1-8b","instance":"p4d.24xlarge","precision":"fp8")" + t), "precision");
  // An inline accelerator without a BF16 peak.
  EXPECT_EQ(field_of(R"({"model":"llama3.1-8b","instance":{"base":"p5.48xlarge","accelerator":{"base":"h100-sxm",)"
                     R"("peak_tflops":{"bf16":null}}},"precision":"bf16")" + t),
            "precision");
  // No link between the chips of a node.
  EXPECT_EQ(field_of(R"({"model":"llama3.1-8b","instance":{"base":"p5.48xlarge","intra":{"gb_per_s_per_chip":0}})" + t),
            "instance.intra.gb_per_s_per_chip");
  // A denormal or a 1e-300 memory bandwidth.
  for (const char* bw : {"5e-324", "1e-300"})
    EXPECT_EQ(field_of(std::string(R"({"model":"llama3.1-8b","instance":{"base":"p5.48xlarge","accelerator":)"
                                   R"({"base":"h100-sxm","hbm_tb_per_s":)") + bw + "}}" + t),
              "instance.accelerator.hbm_tb_per_s");
}

// Class 5: the LoRA rank is bounded by the model's narrowest adapted weight, on every preset.
TEST(Hardening, LoraRankIsBoundedByTheModel) {
  for (const auto& m : lib().models) {
    if (m.kind != tc::ModelKind::decoder) continue;
    const int max = tc::max_lora_rank(m);
    EXPECT_LE(max, m.hidden);
    for (const int rank : {max, max + 1, 65536}) {
      const std::string text = R"({"model":")" + m.id + R"(","instance":"p5.48xlarge","nodes":16,)"
                               R"("training":{"mode":"lora","tokens":1e9,"lora_rank":)" + std::to_string(rank) + "}}";
      try {
        tc::io::parse_job_text(text, lib(), "t");
        EXPECT_LE(rank, max) << m.id;
      } catch (const InputError& e) {
        EXPECT_GT(rank, max) << e.what();
        EXPECT_EQ(e.field(), "training.lora_rank") << e.what();
      }
    }
  }
  // Llama 3.1 8B: K/V width 8 heads x 128 = 1024 is its narrowest weight (Meta's model card).
  EXPECT_EQ(tc::max_lora_rank(*lib().model("llama3.1-8b")), 1024);
}

// Class 8: keys that stand instead of each other are an error naming both, in either order.
TEST(Hardening, ConflictingLinkKeysNameBoth) {
  std::mt19937_64 rng(8);
  std::vector<std::pair<std::string, std::string>> pairs;
  for (const auto& f : tc::io::scenario_fields())
    if (!f.excludes.empty() && !f.hash_key.empty())
      pairs.emplace_back(std::string(f.hash_key), std::string(tc::io::scenario_field(f.excludes).hash_key));
  ASSERT_GE(pairs.size(), 4u);  // n/ch and tt/ts, each way
  for (int i = 0; i < 40; ++i) {
    const auto& [a, b] = pairs[rng() % pairs.size()];
    std::vector<std::string> keys = {"m=llama3.1-8b", "i=p5.48xlarge", a + "=16", b + "=16"};
    std::shuffle(keys.begin(), keys.end(), rng);
    std::string hash = "#v1";
    for (const auto& k : keys) hash += "&" + k;
    try {
      tc::io::parse_url_hash(hash, Json::object());
      ADD_FAILURE() << "accepted " << hash;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(a), std::string::npos) << msg;
      EXPECT_NE(msg.find(b), std::string::npos) << msg;
      EXPECT_NE(msg.find("conflicts"), std::string::npos) << msg;
    }
  }
}

// Class 8: any id a preset file accepts reads back from the link the page writes for it.
TEST(Hardening, EveryPresetIdRoundTripsThroughALink) {
  std::mt19937_64 rng(88);
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+";
  int round_trips = 0;
  for (int i = 0; i < 200; ++i) {
    std::string id;
    const std::size_t len = 1 + rng() % tc::io::kMaxIdLength;
    for (std::size_t k = 0; k < len; ++k) id += alphabet[rng() % alphabet.size()];
    tc::io::PresetLibrary l = lib();
    // The first built-in model under a random id, in a preset file of the built-in form.
    static const Json models = Json::parse(tc::io::embedded_contents("presets/models.json"));
    Json file = models;
    Json model = models["models"][0];
    model["id"] = id;
    file["models"] = Json::array({model});
    try {
      tc::io::merge_preset_json(l, "m.json", file.dump());
    } catch (const InputError&) {
      continue;  // the loader may refuse an id for another reason (a clash); the link never may
    }
    const Json doc = {{"model", id}, {"instance", "p5.48xlarge"}, {"training", {{"tokens", 1e9}}}};
    const std::string hash = tc::io::url_hash(doc);
    const auto st = tc::io::parse_url_hash(hash, Json::object());
    EXPECT_EQ(st.scenario["model"], id) << hash;
    ++round_trips;
  }
  EXPECT_GT(round_trips, 150);
}

// Class 9: messages quote the real value; the README's scenario example is a valid scenario.
TEST(Hardening, MessagesQuoteTheRealValue) {
  try {
    run_text(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","nodes":1.0000000001})");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "nodes: must be an integer (got 1.0000000001)");
  }
  try {
    run_text(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","training":{"samples":1e15,"epochs":1e6}})");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "training.samples") << e.what();
  }
  // -0 never reaches a result.
  const Json r = run_text(R"({"model":"llama3.1-8b","instance":"p5.48xlarge","training":{"tokens":-0.0}})");
  expect_sane_numbers(r, "", "tokens -0.0");
}

TEST(Hardening, ReadmeScenarioExampleIsValid) {
  std::stringstream readme;
  readme << std::ifstream(std::string(TRAINCALC_SOURCE_DIR) + "/README.md").rdbuf();
  const std::string text = readme.str();
  const auto section = text.find("## Scenario files");
  ASSERT_NE(section, std::string::npos);
  const auto open = text.find("```json\n", section);
  const auto close = text.find("```", open + 8);
  ASSERT_TRUE(open != std::string::npos && close != std::string::npos);
  const std::string example = text.substr(open + 8, close - open - 8);
  ASSERT_NE(example.find("//"), std::string::npos);  // it is the annotated example
  const Json r = run_text(example);
  EXPECT_EQ(r["plan"]["tp"], 8);
  EXPECT_EQ(r["plan"]["pp"], 2);
  EXPECT_EQ(r["plan"]["dp"], 8);  // 16 nodes x 8 GPUs / (tp 8 x pp 2)
}

// Class 7: a stream that never ends is refused at the cap, promptly.
TEST(Hardening, ReadingStopsAtTheCap) {
  std::ifstream zero("/dev/zero", std::ios::binary);
  ASSERT_TRUE(zero);
  try {
    tc::io::read_capped(zero, "/dev/zero");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "/dev/zero");
  }
  std::istringstream small("{}");
  EXPECT_EQ(tc::io::read_capped(small, "x"), "{}");
}

// Class 8: preset files load in one order whatever order they are given in (the page's list
// order, the directory's): a set with an instance in one file using an accelerator of another
// gives the same library every time, as the CLI reads it.
TEST(Hardening, PresetFilesLoadInOneOrder) {
  const Json acc = Json::parse(tc::io::embedded_contents("presets/accelerators.json"));
  const Json ins = Json::parse(tc::io::embedded_contents("presets/instances.json"));
  Json a = acc, i = ins, j = ins;
  a["accelerators"] = Json::array({acc["accelerators"][0]});
  a["accelerators"][0]["id"] = "op-chip";
  i["instances"] = Json::array({ins["instances"][0]});
  i["instances"][0]["id"] = "op-node";
  i["instances"][0]["accelerator"] = "op-chip";
  j["instances"] = Json::array({ins["instances"][0]});
  j["instances"][0]["id"] = "op-node";  // a later file (by name) replaces it
  j["instances"][0]["chips_per_node"] = 4;
  std::vector<tc::io::PresetText> files = {{"site/a-instances.json", i.dump()},
                                           {"site/b-more.json", j.dump()},
                                           {"other/z-chips.json", a.dump()}};
  std::mt19937_64 rng(3);
  for (int k = 0; k < 12; ++k) {
    std::shuffle(files.begin(), files.end(), rng);
    tc::io::PresetLibrary l = lib();
    tc::io::merge_preset_set(l, files);
    ASSERT_NE(l.instance("op-node"), nullptr);
    EXPECT_EQ(l.instance("op-node")->chips_per_node, 4);        // b-more.json after a-instances.json
    EXPECT_EQ(l.instance("op-node")->accelerator_id, l.instances[0].accelerator_id);
  }
}

// Class 7: a CSV of more rows than a table of runs holds stops at the row cap, naming the line.
TEST(Hardening, CsvRowsStopAtTheCap) {
  std::string csv = "id,accelerator,measured_tokens_per_s_per_chip\n";
  for (int r = 0; r < 10001; ++r) csv += "r,h100-sxm,1\n";
  try {
    tc::io::read_published_runs(csv);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "csv line 10002: more than 10000 rows after the header; not read further");
  }
  csv.resize(csv.size() - std::string("r,h100-sxm,1\n").size());
  EXPECT_EQ(tc::io::read_published_runs(csv).size(), 10000u);
}

// Class: a number written other than in decimal notation. strtod alone reads "0x10" as 16, " 8" as
// 8 and "inf" or "nan" as numbers; a CSV cell or a link value spelled so is an error on its field.
// Random strings over digits, signs, points, exponents, hexadecimal and word letters and blanks:
// whole_number accepts exactly those the decimal grammar accepts, with strtod's value.
TEST(Hardening, OnlyDecimalNotationReadsAsANumber) {
  const std::regex decimal(R"([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)");
  const std::string alphabet = "0123456789+-.eExXpPaAfFnNiIty \t";
  std::mt19937 rng(20261202);
  int accepted = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string s(rng() % 7, ' ');
    for (auto& c : s) c = alphabet[rng() % alphabet.size()];
    const std::optional<double> got = tc::io::whole_number(s);
    ASSERT_EQ(got.has_value(), std::regex_match(s, decimal)) << '"' << s << '"';
    if (got) {
      ++accepted;
      EXPECT_EQ(*got, std::strtod(s.c_str(), nullptr)) << s;
    }
  }
  EXPECT_GT(accepted, 100);  // the generator reaches both sides of the grammar
  for (const char* bad : {"0x10", " 8", "8 ", "inf", "-inf", "nan", "infinity", "1e", ".", "+", "0x1p3"})
    EXPECT_FALSE(tc::io::whole_number(bad).has_value()) << bad;

  // Both entry points name the field: a CSV cell and a link value.
  std::string csv = "id,accelerator,chips,measured_tokens_per_s_per_chip\n";
  tc::io::PublishedRun run = tc::io::read_published_runs(csv + "R1,h100-sxm,8,0x10\n").at(0);
  EXPECT_NE(tc::io::check_run(run, lib()).problem.find("measured_tokens_per_s_per_chip"), std::string::npos);
  // A count read from a row's notes (atoi of a long run of digits is undefined) is checked the same.
  tc::io::PublishedRun noted = tc::io::read_published_runs(
      "id,source,model,layers,hidden,ffn_hidden,heads,kv_heads,seq_len,vocab,accelerator,chips,"
      "chips_per_node,devices_per_chip,precision,tp,pp,dp,micro_batch,global_batch,"
      "measured_tokens_per_s_per_chip,software,notes\n"
      "R1,s,Llama3-8B,32,4096,14336,32,8,8192,128256,h100-sxm,8,8,1,bf16,1,1,8,1,128,9000,NeMo,"
      "head_dim 99999999999999999999; from a hostile file\n").at(0);
  EXPECT_NE(tc::io::check_run(noted, lib()).problem.find("head_dim"), std::string::npos)
      << tc::io::check_run(noted, lib()).problem;
  try {
    tc::io::parse_job_link("#v1&m=llama3.1-8b&i=p5.48xlarge&n=0x10", lib());
    ADD_FAILURE() << "accepted n=0x10";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "n");
  }
}
