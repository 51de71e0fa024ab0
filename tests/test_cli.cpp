// The command line as scripts use it: exit status, one-line errors naming the field, complete JSON,
// and compare tables that parse in every format.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

namespace {

struct CliRun {
  int status = -1;
  std::string out, err;
};

// Runs the CLI with `args`, feeding `input` on stdin; stderr goes to a file.
CliRun cli(const std::string& args, const std::string& input = "") {
  // ctest runs tests in parallel processes: the files are this process's own.
  static int calls = 0;
  const std::string stem = testing::TempDir() + "tc_cli_" + std::to_string(getpid()) + "_" + std::to_string(calls++);
  const std::string in_path = stem + ".json";
  const std::string err_path = stem + ".err";
  std::ofstream(in_path) << input;
  const std::string cmd = std::string(TRAINCALC_CLI) + " " + args + " < " + in_path + " 2> " + err_path;
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::stringstream e;
  e << std::ifstream(err_path).rdbuf();
  r.err = e.str();
  std::remove(in_path.c_str());
  std::remove(err_path.c_str());
  return r;
}

std::string scenario(const std::string& extra = "") {
  return R"({"model":"llama3.1-8b","instance":"p4d.24xlarge","nodes":2,"global_batch":256,)" + extra +
         R"("training":{"tokens":1e9}})";
}

TEST(Cli, EstimatePrintsTheContractFields) {
  const CliRun r = cli("estimate -", scenario());
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"step_time_s", "tokens_per_s", "tokens_per_s_per_chip", "mfu", "hfu", "tflops_per_chip",
                        "breakdown_s", "memory_gib_per_device", "fits", "plan", "steps", "train_time_s",
                        "warnings", "wall_time_s", "cost_usd", "usd_per_million_tokens", "energy_kwh",
                        "co2e_kg", "uncertainty"})
    EXPECT_TRUE(j.contains(k)) << k;
  double sum = 0;
  for (const auto& item : j["breakdown_s"].items()) sum += item.value().get<double>();
  EXPECT_NEAR(sum, j["step_time_s"].get<double>(), 1e-9 * sum);
  for (const char* k : {"weights", "gradients", "optimizer", "activations", "other", "total", "capacity"})
    EXPECT_TRUE(j["memory_gib_per_device"].contains(k)) << k;
}

TEST(Cli, EstimateBillAsCsvAndMarkdown) {
  // 2 p4d.24xlarge at on demand, 200 GB to the internet: 100 GB free, 100 GB at $0.09 = $9.
  const std::string s = scenario(R"("overheads":{"transfer":{"egress_gb":200}},)");
  const CliRun csv = cli("estimate - --format csv", s);
  ASSERT_EQ(csv.status, 0) << csv.err;
  // The item's id for a program, its plain words for a reader.
  EXPECT_EQ(csv.out.rfind("bill,instance,item,label,quantity,unit,usd_per_unit,usd,detail\n", 0), 0u) << csv.out;
  EXPECT_NE(csv.out.find("cloud,p4d.24xlarge,instance.on_demand,On-Demand,"), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find("cloud,p4d.24xlarge,transfer.egress,internet egress,100,GB,0.09,9.00,"), std::string::npos)
      << csv.out;
  EXPECT_NE(csv.out.find("cloud,p4d.24xlarge,total,"), std::string::npos) << csv.out;
  const CliRun md = cli("estimate - --format markdown", s);
  ASSERT_EQ(md.status, 0) << md.err;
  EXPECT_EQ(md.out.rfind("| bill | instance | item |", 0), 0u) << md.out;
  EXPECT_EQ(cli("estimate - --format xml", s).status, 2);
  // How each figure is computed, as the page shows it on hover: p4d.24xlarge's On-Demand rate
  // from the presets (AWS Price List, us-east-1, 2025-11-30).
  const CliRun ex = cli("estimate - --format explain", s);
  ASSERT_EQ(ex.status, 0) << ex.err;
  EXPECT_EQ(ex.out.rfind("Wall time: ", 0), 0u) << ex.out;
  EXPECT_NE(ex.out.find("On-Demand, 100.0% of hours = $21.96/h: "), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("(us-east-1, 2025-11-30)"), std::string::npos) << ex.out;
  EXPECT_NE(ex.out.find("internet egress: $9"), std::string::npos) << ex.out;
}

TEST(Cli, BadInputExitsTwoWithOneLineNamingTheField) {
  const struct {
    std::string input, field;
  } cases[] = {
      {"{", "stdin"},
      {R"({"instance":"p5.48xlarge"})", "model"},
      {scenario(R"("parallel":{"tp":12},)"), "parallel.tp"},
      {scenario(R"("global_batch":1000,"micro_batch":3,"parallel":{"dp":16},)"), "global_batch"},
      {R"({"model":"llama3-8b","instance":"p5.48xlarge"})", "model"},
      {scenario(R"("nodes":-1,)"), "nodes"},
      {scenario(R"("pricing":{"mix":[{"tier":"on_demand","fraction":0.5},{"tier":"spot","fraction":0.4}]},)"),
       "pricing.mix"},
      {scenario(R"("precision":"fp8",)"), "precision"},
      {scenario(R"("precision":"fp4",)"), "precision"},  // the A100 has no FP4 either
  };
  for (const auto& c : cases) {
    const CliRun r = cli("estimate -", c.input);
    EXPECT_EQ(r.status, 2) << c.input << "\n" << r.out;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.field), std::string::npos) << c.field << " not in: " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << "partial output: " << r.out;
  }
}

// --model-config puts a config.json into the scenario's model: the same job as the preset of the
// same model, and a bad config named by its key, exit 2.
TEST(Cli, ModelConfigIsTheScenariosModel) {
  const std::string dir = std::string(TRAINCALC_SOURCE_DIR) + "/tests/data/hf_configs/";
  const CliRun preset = cli("estimate -", scenario());
  const CliRun hf = cli("estimate - --model-config " + dir + "llama-3.1-8b.json", scenario());
  ASSERT_EQ(hf.status, 0) << hf.err;
  const auto a = nlohmann::json::parse(preset.out), b = nlohmann::json::parse(hf.out);
  EXPECT_EQ(a["step_time_s"], b["step_time_s"]);
  EXPECT_DOUBLE_EQ(b["params"].get<double>(), 8030261248.0);
  const CliRun cmp = cli("compare - --format csv --instances p5.48xlarge --model-config " + dir + "gpt2.json",
                         scenario());
  EXPECT_EQ(cmp.status, 0) << cmp.err;
  const std::string bad = testing::TempDir() + "tc_cli_bad_config.json";
  std::ofstream(bad) << R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32})";
  const CliRun r = cli("estimate - --model-config " + bad, scenario());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: model.hf_config.num_attention_heads: missing (required)\n");
  const CliRun missing = cli("estimate - --model-config /nonexistent/config.json", scenario());
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("/nonexistent/config.json"), std::string::npos) << missing.err;
  std::remove(bad.c_str());
}

TEST(Cli, UnknownIdListsTheNearest) {
  const CliRun r = cli("estimate -", R"({"model":"llama3-8b","instance":"p5.48xlarge"})");
  EXPECT_NE(r.err.find("llama3.1-8b"), std::string::npos) << r.err;
}

TEST(Cli, CompareParsesInEveryFormat) {
  const std::string ids = "--instances p4d.24xlarge,p5.48xlarge,trn1.32xlarge";
  const CliRun json = cli("compare - --format json " + ids, scenario());
  ASSERT_EQ(json.status, 0) << json.err;
  const auto rows = nlohmann::json::parse(json.out);
  ASSERT_EQ(rows.size(), 3u);
  int fastest = 0, cheapest = 0;
  for (const auto& r : rows) {
    fastest += r["fastest"].get<bool>();
    cheapest += r["cheapest"].get<bool>();
  }
  EXPECT_EQ(fastest, 1);
  EXPECT_EQ(cheapest, 1);

  const CliRun csv = cli("compare - --format csv " + ids, scenario());
  ASSERT_EQ(csv.status, 0) << csv.err;
  std::istringstream lines(csv.out);
  std::string line;
  int n = 0;
  size_t columns = 0;
  while (std::getline(lines, line)) {
    // Commas inside a quoted cell ("fastest, cheapest") do not separate columns.
    size_t c = 1;
    bool quoted = false;
    for (char ch : line) {
      if (ch == '"') quoted = !quoted;
      if (ch == ',' && !quoted) ++c;
    }
    if (n++ == 0) columns = c;
    EXPECT_EQ(c, columns) << line;
  }
  EXPECT_EQ(n, 4);

  const CliRun md = cli("compare - --format markdown " + ids, scenario());
  ASSERT_EQ(md.status, 0) << md.err;
  EXPECT_EQ(md.out.rfind("| instance |", 0), 0u) << md.out;
  EXPECT_NE(md.out.find("|---|"), std::string::npos);

  const CliRun text = cli("compare - " + ids, scenario());
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("trn1.32xlarge"), std::string::npos);
}

TEST(Cli, ListAndHelp) {
  const CliRun list = cli("list models --format json");
  ASSERT_EQ(list.status, 0);
  EXPECT_GE(nlohmann::json::parse(list.out).size(), 14u);
  // Every profile is listed with its name, not only its id.
  const auto frameworks = nlohmann::json::parse(cli("list frameworks --format json").out);
  ASSERT_GE(frameworks.size(), 8u);
  for (const auto& f : frameworks) EXPECT_FALSE(f.value("name", "").empty()) << f.dump();
  EXPECT_EQ(cli("--help").status, 0);
  // Asked after a command, help is help, not a file or a kind named "--help".
  for (const char* asked : {"validate --help", "estimate -h", "list --help", "compare --help"}) {
    const CliRun r = cli(asked);
    EXPECT_EQ(r.status, 0) << asked << ": " << r.err;
    EXPECT_NE(r.out.find("usage:"), std::string::npos) << asked;
  }
  EXPECT_EQ(cli("").status, 2);
  EXPECT_EQ(cli("frobnicate").status, 2);
}

// `validate --batch` answers each request on stdin with the line `validate --format json` would
// print, its presets merged for that request alone, and a bad request with an error line naming it,
// the requests after it answered as before.
TEST(Cli, ValidateBatchAnswersEachRequestAlone) {
  const std::string src = TRAINCALC_SOURCE_DIR;
  const std::string csv = src + "/tests/data/published_runs.csv";
  const CliRun whole = cli("validate " + csv + " --format json");
  ASSERT_EQ(whole.status, 0) << whole.err;
  // A preset directory that slows H100 GEMMs: its rows' predictions move, in its request only.
  const std::filesystem::path dir = testing::TempDir() + "tc_batch_" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  nlohmann::json acc = nlohmann::json::parse(std::ifstream(src + "/presets/accelerators.json"));
  for (auto& a : acc["accelerators"])
    if (a["id"] == "h100-sxm") a["calibration"]["matmul_efficiency_max"] = 0.3;
  std::ofstream(dir / "accelerators.json") << acc.dump();
  auto req = [](nlohmann::json j) { return j.dump() + "\n"; };
  const std::string ok = req({{"csv", csv}});
  const CliRun r = cli("validate --batch",
                       ok + req({{"csv", csv}, {"presets", dir.string()}}) + "not json\r\n" +
                           req({{"presets", "x"}}) + req({{"csv", csv}, {"presets", "/nonexistent"}}) + "\r\n\n" +
                           req({{"csv", "-"}}) + req({{"csv", csv}, {"preset", dir.string()}}) +
                           req({{"csv", "/nonexistent.csv"}}) + "{\"csv\": \"\xff\"}\n" + ok.substr(0, ok.size() - 1));
  std::filesystem::remove_all(dir);
  ASSERT_EQ(r.status, 0) << r.err;
  std::vector<nlohmann::json> lines;
  std::stringstream out(r.out);
  for (std::string line; std::getline(out, line);) lines.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(lines.size(), 10u) << r.out.substr(0, 500);
  EXPECT_EQ(lines[0], nlohmann::json::parse(whole.out));
  EXPECT_EQ(lines[9], lines[0]);  // the merged presets, and the errors, left nothing behind
  ASSERT_TRUE(lines[1].is_array());
  int moved = 0;
  for (std::size_t i = 0; i < lines[1].size(); ++i) {
    const bool h100 = lines[1][i]["accelerator"] == "h100-sxm" && lines[1][i]["problem"] == "";
    moved += lines[1][i]["predicted_tokens_per_s_per_chip"] != lines[0][i]["predicted_tokens_per_s_per_chip"];
    if (h100) {
      EXPECT_LT(lines[1][i]["predicted_tokens_per_s_per_chip"], lines[0][i]["predicted_tokens_per_s_per_chip"]);
    }
  }
  EXPECT_GT(moved, 10);
  auto error = [&](std::size_t i) { return lines[i].value("error", std::string("(no error)")); };
  EXPECT_EQ(error(2).rfind("request: malformed JSON", 0), 0u) << error(2);
  EXPECT_EQ(error(3), "request.csv: must name the CSV of published runs (a file)");
  EXPECT_EQ(error(4), "/nonexistent: not a directory");
  EXPECT_EQ(error(5), "request.csv: must name the CSV of published runs (a file)");  // stdin holds the requests
  EXPECT_EQ(error(6), "request.preset: is not a request field (csv, presets)");
  EXPECT_EQ(error(7), "request.csv: /nonexistent.csv: cannot be opened");
  EXPECT_EQ(error(8).rfind("request: malformed JSON", 0), 0u) << error(8);  // not UTF-8, quoted as U+FFFD
  // A request line longer than any real one is refused, not read into memory whole.
  const CliRun big = cli("validate --batch", std::string(1 << 20, ' ') + "\n" + ok);
  ASSERT_EQ(big.status, 0) << big.err;
  std::stringstream big_out(big.out);
  std::string first, second;
  std::getline(big_out, first);
  std::getline(big_out, second);
  EXPECT_EQ(first, "{\"error\":\"request: over 65536 bytes\"}");
  EXPECT_EQ(nlohmann::json::parse(second), lines[0]);
  EXPECT_EQ(cli("validate --batch " + csv).status, 2);
}

// docs/scenario-fields.md is the table the code declares (io/schema.hpp).
TEST(Cli, FieldReferenceIsCurrent) {
  const CliRun r = cli("list fields --format markdown");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("| parallel.tp | tp | integer or \"auto\" | ranks | 1 to 1048576 | auto |"), std::string::npos)
      << r.out;
  std::stringstream doc;
  doc << std::ifstream(std::string(TRAINCALC_SOURCE_DIR) + "/docs/scenario-fields.md").rdbuf();
  EXPECT_NE(doc.str().find(r.out), std::string::npos)
      << "docs/scenario-fields.md is out of date: its table is `traincalc list fields --format markdown`";
}

}  // namespace

// `estimate --link` decodes a page link with the page's decoder: the link of every seed scenario
// gives the seed's own result (tokens/s), a bad link exits 2 with one line naming the link key.
TEST(Cli, EstimateLinkReadsWhatThePageReads) {
  for (const char* seed : {"default", "case-a-dense-100b", "case-c-llama3.1-8b-sweep"}) {
    const std::string path = std::string(TRAINCALC_SOURCE_DIR) + "/presets/scenarios/" + seed + ".json";
    const CliRun file = cli("estimate " + path);
    const CliRun link = cli(std::string("estimate --link 'https://example.invalid/page#v1&s=") + seed + "'");
    ASSERT_EQ(file.status, 0) << file.err;
    ASSERT_EQ(link.status, 0) << link.err;
    EXPECT_EQ(nlohmann::json::parse(file.out)["tokens_per_s"], nlohmann::json::parse(link.out)["tokens_per_s"]) << seed;
  }
  const CliRun bad = cli("estimate --link '#v1&m=llama3.1-8b&i=p5.48xlarge&n=2&ch=16'");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(bad.out.empty());
  EXPECT_EQ(bad.err, "error: n: conflicts with ch: nodes and chips stand instead of each other; give one\n");
  const CliRun big = cli("estimate --link '#v1&m=llama3.1-8b&i=p5.48xlarge&pp=65536&vpp=65536'");
  EXPECT_EQ(big.status, 2);
  EXPECT_EQ(big.err, "error: pp (parallel.pp): pp = 65536 exceeds the 8 devices of the cluster\n");
  EXPECT_EQ(cli("estimate --link 'https://example.invalid/page'").status, 2);
  EXPECT_EQ(cli("estimate --link '#v1&m=x' file.json").status, 2);
}

// An empty option value (an unset variable) is an error, not "no presets".
TEST(Cli, EmptyOptionValuesAreErrors) {
  for (const char* opt : {"--presets", "--format", "--instances"}) {
    const CliRun r = cli(std::string("estimate - ") + opt + " ''", scenario());
    EXPECT_EQ(r.status, 2) << opt;
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find(std::string(opt) + " needs a value"), std::string::npos) << r.err;
  }
}

// Reading stops at 16 MiB: /dev/zero ends with one line, promptly.
TEST(Cli, EndlessInputStopsAtTheCap) {
  const CliRun r = cli("estimate /dev/zero");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "error: /dev/zero: larger than 16 MiB (16777216 bytes); not read further\n");
}
