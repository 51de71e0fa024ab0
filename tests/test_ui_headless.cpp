// The calculator's UI without a window (as ImGui's example_null): every panel drawn for several
// frames with every preset model, every preset instance and every seed scenario, and every text
// drawn scanned for "nan" and "inf". Also the URL hash against hostile input, and the app state's
// handling of bad preset files, imports and links.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <tuple>

#include "core/labels.hpp"
#include "headless_imgui.hpp"
#include "imgui.h"
#include "io/compare.hpp"
#include "io/job.hpp"
#include "io/schema.hpp"
#include "io/url_state.hpp"
#include "ui/app_state.hpp"
#include "ui/format.hpp"
#include "ui/item_hooks.hpp"
#include "ui/mirror.hpp"
#include "ui/panels.hpp"
#include "ui/widgets.hpp"

namespace tc::ui {
namespace {

std::string& logged() {
  static std::string text;
  return text;
}

class Headless : public ::testing::Test {
 protected:
  void SetUp() override {
    tc_test::create_headless_imgui();
    ImGuiIO& io = ImGui::GetIO();
    // Logging opens every tree node and collapsing header, so closed sections are drawn too.
    io.SetClipboardTextFn = [](void*, const char* text) { logged() += text; };
    init(state, nullptr);
    state.log_text = true;
    state.view.show_sources = true;
  }
  void TearDown() override { ImGui::DestroyContext(); }

  // Draws `frames` frames and returns every text drawn. A tall display keeps every panel on screen
  // (ImGui skips the text of clipped items).
  std::string frames(int n, float width = 1600) {
    std::string all;
    for (int f = 0; f < n; ++f) {
      update(state, 1e9);
      ImGuiIO& io = ImGui::GetIO();
      io.DisplaySize = ImVec2(width, 12000);
      io.DeltaTime = 1.0f / 60.0f;
      ImGui::NewFrame();
      logged().clear();
      draw_app(state);
      all += logged();
      ImGui::Render();
    }
    return all;
  }

  // The editor alone, logged as frames() logs the page. Logging opens tree nodes but not
  // collapsing headers: `open` names the sections to open as a click would.
  std::string editor_text(std::initializer_list<const char*> open = {}) {
    ImGui::GetIO().DisplaySize = ImVec2(1600, 12000);
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1600, 12000));
    ImGui::Begin("editor");
    for (const char* header : open) ImGui::GetStateStorage()->SetInt(ImGui::GetID(header), 1);
    logged().clear();
    ImGui::LogToClipboard(64);
    panel_editor(state);
    ImGui::LogFinish();
    ImGui::End();
    ImGui::Render();
    return logged();
  }

  void expect_finite_text(const std::string& drawn, const std::string& what) {
    static const std::regex bad(R"((^|[^A-Za-z])(nan|inf|infinity)([^A-Za-z]|$))", std::regex::icase);
    std::smatch m;
    if (std::regex_search(drawn, m, bad)) {
      const auto at = static_cast<std::size_t>(m.position(0));
      ADD_FAILURE() << what << ": drew non-finite text near: \""
                    << drawn.substr(at > 60 ? at - 60 : 0, 140) << "\"";
    }
  }

  AppState state;
};

TEST_F(Headless, DefaultScenarioAnswersTheMainQuestion) {
  const std::string drawn = frames(4);
  ASSERT_TRUE(state.current.ok) << state.current.error;
  EXPECT_EQ(state.current.job.spec.model_id, "llama3.1-70b");
  EXPECT_EQ(state.comparison.size(), 2u);
  for (const auto& c : state.comparison) EXPECT_TRUE(c.done && c.out.ok) << c.instance_id << ": " << c.out.error;
  EXPECT_NE(drawn.find("Wall time"), std::string::npos);
  EXPECT_NE(drawn.find("p5.48xlarge"), std::string::npos);
  expect_finite_text(drawn, "default");
}

// The seeds panel shows each case's verdict counts, the same as the command line's report.
TEST_F(Headless, SeedsPanelCountsEachCasesVerdicts) {
  frames(1);
  while (work_pending(state)) update(state, 1e9);
  // Closed, the panel costs nothing: no case is checked until it is opened.
  for (const auto& seed : state.seeds) EXPECT_FALSE(seed.verdicts_done) << seed.id;
  state.seeds_wanted = true;  // what drawing the panel does
  while (work_pending(state)) update(state, 1e9);
  // The panel alone (its header is closed by default), logged as frames() logs the page.
  ImGui::GetIO().DisplaySize = ImVec2(1600, 12000);
  ImGui::NewFrame();
  ImGui::Begin("seeds");
  logged().clear();
  ImGui::LogToClipboard();
  panel_seeds(state);
  ImGui::LogFinish();
  ImGui::End();
  ImGui::Render();
  const std::string drawn = logged();
  ASSERT_GE(state.seeds.size(), 5u);
  int with_claims = 0;
  for (const auto& seed : state.seeds) {
    SCOPED_TRACE(seed.id);
    ASSERT_TRUE(seed.verdicts_done);
    if (seed.id.rfind("case-", 0) != 0) continue;
    ++with_claims;
    const io::Job job = io::parse_job(seed.doc, state.lib, seed.id);
    const io::Result r = io::evaluate(job, state.lib);
    ASSERT_TRUE(r.cost);
    EXPECT_EQ(seed.verdicts, describe(count_verdicts(r.cost->claims)));
    EXPECT_NE(drawn.find(seed.verdicts), std::string::npos) << seed.verdicts;
  }
  EXPECT_EQ(with_claims, 5);
}

TEST_F(Headless, EveryModelEveryInstanceEverySeedDrawsFiniteText) {
  std::vector<std::pair<std::string, io::Json>> docs;
  for (const auto& m : state.lib.models) {
    io::Json d = default_scenario();
    d["model"] = m.id;
    d.erase("compare_instances");
    docs.emplace_back("model " + m.id, d);
  }
  for (const auto& i : state.lib.instances) {
    io::Json d = default_scenario();
    d["instance"] = i.id;
    d["nodes"] = 2;
    d["model"] = "llama3.1-8b";
    d.erase("compare_instances");
    docs.emplace_back("instance " + i.id, d);
  }
  ASSERT_FALSE(docs.empty());
  int drawn_ok = 0;
  for (const auto& [what, doc] : docs) {
    set_scenario(state, doc, "");
    state.view.scaling_max_nodes = 4;
    expect_finite_text(frames(3), what);
    drawn_ok += state.current.ok ? 1 : 0;
  }
  for (const auto& seed : state.seeds) {
    set_scenario(state, seed.doc, seed.id);
    state.view.scaling_max_nodes = 0;
    expect_finite_text(frames(3), "seed " + seed.id);
    EXPECT_TRUE(state.current.ok) << "seed " << seed.id << ": " << state.current.error;
  }
  EXPECT_GT(drawn_ok, static_cast<int>(docs.size()) / 2);
}

TEST_F(Headless, EmbedAndNarrowLayoutsDraw) {
  ASSERT_TRUE(apply_hash(state, "#v1&m=llama3.1-8b&i=p5.48xlarge&n=2&tt=1e11&embed=1"));
  EXPECT_TRUE(state.view.embed);
  const std::string embed = frames(3, 500);
  expect_finite_text(embed, "embed");
  // A change made in a wiki page can be shared: the compact toolbar keeps sharing and exports.
  EXPECT_NE(embed.find("Copy link"), std::string::npos);
  EXPECT_NE(embed.find("Markdown"), std::string::npos);
  EXPECT_EQ(embed.find("Seed cases"), std::string::npos) << "embed mode keeps only sharing and exports";
  state.view.embed = false;
  expect_finite_text(frames(3, 700), "narrow");
}

// Two items of one window with one id share the mouse and the keyboard focus: each activates or
// releases the other (the "tokens" field lost its focus, typed into or tabbed to, to the "tokens"
// radio button drawn above it). Every seed in the wide, narrow and embedded layouts, every section
// open (logging opens them).
TEST_F(Headless, NoTwoItemsOfAWindowShareAnId) {
  std::map<std::tuple<int, ImGuiID, ImGuiID>, int> added;  // (frame, window, id): times added
  std::map<ImGuiID, std::string> labels;
  observe_items([&](const ImGuiItem& item) {
    if (item.label) labels[item.id] = item.label;
    else ++added[{ImGui::GetFrameCount(), item.window_id, item.id}];
  });
  for (const auto& seed : state.seeds) {
    for (const auto& [width, embed] : {std::pair{1600.0f, false}, {390.0f, false}, {500.0f, true}}) {
      set_scenario(state, seed.doc, seed.id);
      state.view.embed = embed;
      frames(2, width);
    }
  }
  observe_items({});
  std::set<std::string> clashes;
  for (const auto& [key, count] : added) {
    if (count > 1) clashes.insert("\"" + (labels.count(std::get<2>(key)) ? labels[std::get<2>(key)] : "?") + "\" x" +
                                  std::to_string(count));
  }
  EXPECT_GT(added.size(), 1000u) << "the hooks saw too few items to judge";
  for (const auto& c : clashes) ADD_FAILURE() << "items sharing an id in one window: " << c;
}

// A phone-wide window stacks the results above the inputs; a wide one puts the inputs beside them.
TEST_F(Headless, NarrowLayoutShowsTheResultsFirst) {
  frames(2, 390);
  const auto& rects = widget_rects();
  ASSERT_TRUE(rects.count("results") && rects.count("editor"));
  EXPECT_LT(rects.at("results").first.y, rects.at("editor").first.y);
  // The toolbar wraps: its exports start a line below the seed picker, inside the window.
  EXPECT_GT(rects.at("export_csv").first.y, rects.at("seeds").first.y);
  EXPECT_LE(rects.at("export_csv").second.x, 390.0f);
  frames(2, 1600);
  EXPECT_LT(rects.at("editor").first.x, rects.at("results").first.x);
  EXPECT_FLOAT_EQ(rects.at("export_csv").first.y, rects.at("seeds").first.y);
}

// A picker opens on the whole list: the search typed the last time it was open is cleared (a
// left-over "p4d" would hide every other instance).
TEST_F(Headless, PickerOpensWithAnEmptySearch) {
  frames(2);
  state.view.instance_filter = "p4d";
  const auto rect = widget_rects().at("instance");
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2((rect.first.x + rect.second.x) / 2, (rect.first.y + rect.second.y) / 2);
  io.MouseDown[0] = true;  // a click: pressed, then released over the combo
  frames(1);
  io.MouseDown[0] = false;
  frames(1);
  EXPECT_TRUE(ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) << "the click did not open the picker";
  EXPECT_EQ(state.view.instance_filter, "");
}

TEST_F(Headless, ErrorsKeepTheLastGoodResult) {
  frames(2);
  ASSERT_TRUE(state.current.ok);
  const double good_step = state.current.est.step_time_s;
  state.doc["model"] = "no-such-model";
  const std::string drawn = frames(2);
  EXPECT_FALSE(state.current.ok);
  EXPECT_EQ(state.current.error_field, "model");
  ASSERT_NE(shown(state), nullptr);
  EXPECT_EQ(shown(state)->est.step_time_s, good_step);
  EXPECT_NE(drawn.find("Scenario problem"), std::string::npos);
  expect_finite_text(drawn, "error");
}

// Issue 12: the page has inputs for the storage services and the incidents, drawn from the schema
// table's rows; a link with them opens the scenario they describe.
TEST_F(Headless, EditorShowsStorageServicesAndIncidents) {
  ASSERT_TRUE(apply_hash(state, "#v1&m=llama3.1-8b&i=p5.48xlarge&n=2&tt=1e11&o.storage.checkpoints_service=fsx_lustre"
                                "&o.storage.fsx_tier=scratch_2&in=2&in.0.kind=oom&in.0.hours=4&in.1.kind=lost_day"));
  frames(1);
  const std::string drawn = editor_text({"Overheads", "Incidents", "Campaign and deadline"});
  for (const char* text : {"checkpoints_service", "fsx_lustre", "scratch_2", "dataset_service", "copy_to_region",
                           "add incident", "remove incident", "oom", "hours", "lost_day", "days",
                           // the overhead and campaign rows take unit and range from the schema table
                           "first compile", "runs per month", "deadline", "minutes"})
    EXPECT_NE(drawn.find(text), std::string::npos) << text;
  ASSERT_TRUE(state.current.ok) << state.current.error_field;
  EXPECT_EQ(state.doc["incidents"].size(), 2u);
  expect_finite_text(drawn, "storage and incidents");
}

// With full recompute the editor offers how many layers of a stage recompute, and the plan it
// prints says so.
TEST_F(Headless, EditorOffersRecomputedLayersWithFullRecompute) {
  ASSERT_TRUE(apply_hash(state, "#v1&m=llama3.1-70b&i=p5.48xlarge&n=8&tt=1e11&rc=full&rl=20"));
  frames(1);
  ASSERT_TRUE(state.current.ok) << state.current.error_field;
  const std::string drawn = editor_text();
  EXPECT_NE(drawn.find("recomputed layers"), std::string::npos);
  EXPECT_NE(drawn.find("of 20 layers a stage"), std::string::npos) << drawn.substr(0, 2000);
  EXPECT_EQ(state.doc["recompute_layers"], 20);
}

// With a pipeline the editor offers the first and the last stage's layers, greyed as the layout
// the estimate took until one is stated; a stated one comes from the link and the plan says so.
TEST_F(Headless, EditorOffersTheFirstAndLastStagesLayers) {
  ASSERT_TRUE(apply_hash(state, "#v1&m=llama3.1-70b&i=p5.48xlarge&n=8&tt=1e11&pp=8&lsl=6"));
  frames(1);
  ASSERT_TRUE(state.current.ok) << state.current.error_field;
  const std::string drawn = editor_text();
  EXPECT_NE(drawn.find("first stage"), std::string::npos);
  EXPECT_NE(drawn.find("last stage"), std::string::npos);
  EXPECT_EQ(state.doc["parallel"]["last_stage_layers"], 6);
  EXPECT_DOUBLE_EQ(state.current.est.last_stage_layers, 6);
  EXPECT_DOUBLE_EQ(state.current.est.first_stage_layers, 11);  // 74 left for 7 stages: 11 on the first four
  const std::string cell = io::plan_short(state.current.est.plan);  // a comparison row's plan cell
  EXPECT_EQ(cell.substr(cell.size() - 6), " last6") << cell;
}

// Ticking an optional field's box sets it to the value shown greyed (here the last stage's layers
// as the layout took them), in the frame of the click.
TEST_F(Headless, TickingAnOptionalFieldSetsTheValueShown) {
  ASSERT_TRUE(apply_hash(state, "#v1&m=llama3.1-70b&i=p5.48xlarge&n=8&tt=1e11&pp=8"));
  frames(2);
  ASSERT_TRUE(state.current.ok) << state.current.error_field;
  const double shown_layers = state.current.est.last_stage_layers;
  const auto rect = widget_rects().at("parallel.last_stage_layers");
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2((rect.first.x + rect.second.x) / 2, (rect.first.y + rect.second.y) / 2);
  io.MouseDown[0] = true;
  frames(1);
  io.MouseDown[0] = false;
  frames(1);
  ASSERT_NE(doc_get(state.doc, "parallel.last_stage_layers"), nullptr) << "the click did not tick the box";
  EXPECT_EQ(doc_get(state.doc, "parallel.last_stage_layers")->get<double>(), shown_layers);
}

TEST_F(Headless, HostileHashShowsAnErrorAndKeepsTheScenario) {
  frames(1);
  const io::Json before = state.doc;
  for (const char* h : {"#v1&n=abc", "#v1&n=1e999", "#v9&m=x", "#v1&zz=1", "#v1&n=1&n=2", "#v1&m=%3Cscript%3E",
                        "#v1&m=%00", "#v1&pr=spot", "#v1&tp=-3", "#v1&o.compile=1", "#m=llama3.1-8b",
                        "#v1&c=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", "#v1&n=%zz", "#v1&s=../../etc/passwd"}) {
    EXPECT_FALSE(apply_hash(state, h)) << h;
    EXPECT_FALSE(state.hash_error.empty()) << h;
    EXPECT_EQ(state.doc, before) << h;
  }
  const std::string drawn = frames(2);
  EXPECT_NE(drawn.find("could not be read"), std::string::npos);
  // A good link clears the error.
  EXPECT_TRUE(apply_hash(state, "#v1&m=llama3.1-8b&i=p5.48xlarge&n=1&tt=1e9"));
  EXPECT_TRUE(state.hash_error.empty());
}

TEST_F(Headless, UnknownIdsInAHashAreNamedByTheScenarioField) {
  ASSERT_TRUE(apply_hash(state, "#v1&m=llama3-8b&i=p5.48xlarge&n=1&tt=1e9"));
  frames(1);
  EXPECT_FALSE(state.current.ok);
  EXPECT_EQ(state.current.error_field, "model");
  EXPECT_NE(state.current.error.find("llama3.1-8b"), std::string::npos) << state.current.error;
}

TEST_F(Headless, BadPresetFileShowsABannerAndKeepsBuiltIns) {
  const std::size_t models = state.lib.models.size();
  EXPECT_FALSE(merge_presets(state, "presets/operator.json", R"({"schema": "traincalc.instances/1", "instances": [{"id": 3}]})"));
  ASSERT_EQ(state.banners.size(), 1u);
  EXPECT_NE(state.banners[0].text.find("presets/operator.json"), std::string::npos) << state.banners[0].text;
  EXPECT_NE(state.banners[0].text.find("instances[0]"), std::string::npos) << state.banners[0].text;
  EXPECT_EQ(state.lib.models.size(), models);
  EXPECT_FALSE(merge_presets(state, "presets/x.json", "{not json"));
  const std::string drawn = frames(2);
  EXPECT_NE(drawn.find("presets/operator.json"), std::string::npos);
  EXPECT_TRUE(state.current.ok);
}

TEST_F(Headless, ImportAndExportRoundTrip) {
  frames(1);
  const std::string text = export_scenario(state);
  set_scenario(state, io::Json::object(), "");
  ASSERT_TRUE(import_scenario(state, "scenario.json", text));
  frames(1);
  EXPECT_TRUE(state.current.ok);
  EXPECT_FALSE(import_scenario(state, "bad.json", R"({"model": "llama3.1-8b", "instance": "p5.48xlarge", "nodez": 2})"));
  EXPECT_NE(state.banners.back().text.find("nodez"), std::string::npos) << state.banners.back().text;
  // A later import that works clears the import's error; a preset file's banner stays.
  EXPECT_FALSE(merge_presets(state, "presets/x.json", "{not json"));
  const std::size_t with_errors = state.banners.size();
  ASSERT_TRUE(import_scenario(state, "scenario.json", text));
  EXPECT_EQ(state.banners.size(), with_errors - 1);
  for (const auto& b : state.banners) EXPECT_EQ(b.text.find("nodez"), std::string::npos) << b.text;
  EXPECT_NE(state.banners.back().text.find("presets/x.json"), std::string::npos);
  // The CSV and Markdown exports: the comparison with each row's tier, region, price date and
  // $/h, numbers as plain decimals (no "$21.1 k": the human formatter is for text and the page).
  frames(1);
  while (work_pending(state)) update(state, 1e9);
  const io::Table t = results_table(state);
  ASSERT_EQ(t.rows.size(), 2u);
  for (const char* column : {"pricing", "region", "price_date", "usd_per_hour", "total_usd", "wall_time_days"}) {
    const auto at = std::find(t.header.begin(), t.header.end(), column);
    ASSERT_NE(at, t.header.end()) << column;
    const bool number = std::string(column) == "usd_per_hour" || std::string(column) == "total_usd" ||
                        std::string(column) == "wall_time_days";
    for (const auto& row : t.rows) {
      const std::string& cell = row[static_cast<std::size_t>(at - t.header.begin())];
      EXPECT_FALSE(cell.empty()) << column;
      EXPECT_EQ(cell.find_first_of("$_"), std::string::npos) << column << ": " << cell;
      char* end = nullptr;
      std::strtod(cell.c_str(), &end);
      if (number) {
        EXPECT_EQ(*end, '\0') << column << ": " << cell;
      }
    }
  }
}

// The seed picker lists the default scenario once: presets/scenarios/default.json asks its
// question again and is left out of it.
TEST_F(Headless, SeedPickerListsTheDefaultOnce) {
  const auto choices = seed_choices(state);
  ASSERT_EQ(choices.size(), state.seeds.size());
  EXPECT_EQ(choices.front().first, "");
  int defaults = 0;
  for (const auto& [id, name] : choices) defaults += id.empty() || id == "default" ? 1 : 0;
  EXPECT_EQ(defaults, 1);
}

// The header's promise, "every figure shows its source on hover": every figure the panels draw
// carries an explanation (formula in words, every input with its source, the band), for the
// default scenario and every seed; and no internal id of a term, item or field is drawn.
TEST_F(Headless, EveryFigureExplainsItself) {
  std::vector<std::pair<std::string, io::Json>> docs = {{"default", default_scenario()}};
  for (const auto& seed : state.seeds) docs.emplace_back(seed.id, seed.doc);
  for (const auto& [id, doc] : docs) {
    SCOPED_TRACE(id);
    set_scenario(state, doc, "");
    state.view.scaling_max_nodes = 0;
    frames(1);
    while (work_pending(state)) update(state, 1e9);
    const std::string drawn = frames(1);
    ASSERT_TRUE(state.current.ok) << state.current.error;
    std::map<std::string, int> titles;
    for (const auto& x : state.explained) {
      ++titles[x.title];
      EXPECT_FALSE(x.formula.empty()) << x.title;
      EXPECT_FALSE(x.band.empty()) << x.title;
      EXPECT_FALSE(x.inputs.empty()) << x.title;
      for (const auto& in : x.inputs) EXPECT_FALSE(in.source.empty()) << x.title << ": " << in.name;
    }
    const Outcome& o = state.current;
    ASSERT_TRUE(o.cost);
    int rows = 0, priced = 0, points = 0;
    for (const auto& c : state.comparison) {
      rows += c.done && c.out.ok && c.out.cost ? 1 : 0;
      priced += c.done && c.out.ok && c.out.cost && c.out.cost->result.bill.priced ? 1 : 0;
    }
    // Headline, comparison table and bars: one wall-time explanation each.
    EXPECT_EQ(titles["Wall time"], 1 + 2 * rows);
    EXPECT_EQ(titles["MFU"], 1 + rows);
    EXPECT_EQ(titles["Per 1M tokens"], 1 + rows);
    EXPECT_EQ(titles["Chips"], rows);
    EXPECT_EQ(titles["Plan"], rows);
    EXPECT_EQ(titles["Total bill"], 1 + rows + priced + 1);  // headline, table, bars of priced rows, bill's total
    for (const auto& p : state.scaling)
      if (p.done && p.out.ok) {
        ++points;
        EXPECT_EQ(titles[std::to_string(p.nodes) + " nodes: Wall time"], 1) << p.nodes;
        EXPECT_EQ(titles[std::to_string(p.nodes) + " nodes: Total bill"], 1) << p.nodes;
      }
    EXPECT_GE(points, 1);
    for (const auto& t : o.est.breakdown_s)
      if (t.value > 0) {
        EXPECT_GE(titles[plain_label(t.name)], 1) << t.name;
      }
    for (const char* m : {"Memory per device", "Weights", "Gradients", "Optimizer state", "Activations",
                          "Runtime reserve and buffers", "Largest micro-batch that fits"})
      EXPECT_EQ(titles[m], 1) << m;
    const Bill& b = o.cost->result.bill;
    for (const auto& it : b.items_usd) {
      EXPECT_GE(titles[plain_label(it.name)], 1) << it.name;
      if (it.name.find_first_of("._") != std::string::npos) {
        EXPECT_EQ(drawn.find(it.name), std::string::npos) << "id drawn: " << it.name;
      }
    }
    for (const auto& t : o.est.breakdown_s)
      if (t.name.find('_') != std::string::npos) {
        EXPECT_EQ(drawn.find(t.name), std::string::npos) << t.name;
      }
    EXPECT_EQ(drawn.find("pricing.mix["), std::string::npos);
  }
}

// Warnings and problems on the page name fields in plain words; the CLI keeps the paths.
TEST_F(Headless, MessagesNameFieldsInPlainWords) {
  set_scenario(state, {{"model", "llama3.1-8b"}, {"instance", "trn2.48xlarge"}, {"nodes", 2}}, "");
  frames(1);
  while (work_pending(state)) update(state, 1e9);
  std::string drawn = frames(1);
  ASSERT_TRUE(state.current.ok) << state.current.error;
  EXPECT_NE(drawn.find("set pricing region to choose"), std::string::npos);
  EXPECT_EQ(drawn.find("pricing.region"), std::string::npos);
  const std::string mirror = mirror_json(state).dump();
  EXPECT_NE(mirror.find("set pricing region to choose"), std::string::npos);
  EXPECT_EQ(mirror.find("pricing.region"), std::string::npos) << mirror.substr(mirror.find("pricing.region") - 200, 300);
  set_scenario(state, {{"model", "llama3.1-8b"}, {"instance", "p5.48xlarge"}, {"global_batch_exact", true},
                       {"global_batch", 3}, {"micro_batch", 2}}, "");
  drawn = frames(2);
  ASSERT_FALSE(state.current.ok);
  EXPECT_NE(state.current.error.find("global_batch"), std::string::npos) << state.current.error;
  EXPECT_NE(drawn.find("Scenario problem: global batch"), std::string::npos) << drawn.substr(0, 400);
  EXPECT_EQ(drawn.find("global_batch"), std::string::npos);
}

// A config.json opened, dropped or pasted on the page becomes the model of the scenario shown;
// the instance and the rest of the scenario stay.
TEST_F(Headless, AConfigJsonBecomesTheModel) {
  frames(1);
  const io::Json instance = state.doc["instance"];
  const std::string config = R"({"architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_embd": 768,
    "n_head": 12, "n_layer": 12, "n_positions": 1024, "vocab_size": 50257, "bos_token_id": 50256})";
  ASSERT_TRUE(import_scenario(state, "config.json", config));
  EXPECT_EQ(state.doc["instance"], instance);
  EXPECT_EQ(state.doc["model"]["hf_config"]["model_type"], "gpt2");
  const std::string drawn = frames(2);
  ASSERT_TRUE(state.current.ok);
  EXPECT_DOUBLE_EQ(state.current.est.params, 124439808.0);  // GPT-2 small, tied embeddings
  EXPECT_NE(drawn.find("from config.json: gpt2"), std::string::npos);
  EXPECT_NE(drawn.find("not used by the estimate: bos_token_id"), std::string::npos);
  expect_finite_text(drawn, "config.json model");
  EXPECT_FALSE(import_scenario(state, "bad.json", R"({"model_type": "gpt2", "n_embd": 768})"));
  EXPECT_EQ(state.banners.back().text.rfind("Model config not imported: model.hf_config.n_layer: missing", 0), 0u)
      << state.banners.back().text;
}

// Dragging the nodes slider over 1..128 never lands on an error: a global batch that does not
// split is replaced by the nearest that does. The -/+ of the batch steps to batches that split,
// and an exact batch that does not split offers its fixes, which apply in one click.
TEST_F(Headless, EveryNodeCountGivesAResult) {
  for (const auto& [model, instance] : {std::pair<const char*, const char*>{"llama3.1-8b", "p5.48xlarge"},
                                        {"llama3.1-70b", "trn2.48xlarge"}}) {
    state.doc["model"] = model;
    state.doc["instance"] = instance;
    for (int n = 1; n <= 128; ++n) {
      state.doc["nodes"] = n;
      update(state, 0);
      EXPECT_TRUE(state.current.ok) << model << " on " << n << " x " << instance << ": " << state.current.error;
    }
  }
}

TEST_F(Headless, StepsAndFixesOfTheGlobalBatch) {
  state.doc["model"] = "llama3.1-8b";
  state.doc["instance"] = "p5.48xlarge";
  state.doc["nodes"] = 33;
  state.doc["global_batch"] = 512;
  state.doc["global_batch_exact"] = true;
  frames(1);
  ASSERT_FALSE(state.current.ok);
  ASSERT_TRUE(state.current.batch_fixes.has_value());
  EXPECT_EQ(state.current.batch_fixes->nodes, (std::vector<int>{32, 34}));
  const std::string drawn = frames(1);
  EXPECT_NE(drawn.find("32 nodes"), std::string::npos);
  EXPECT_NE(drawn.find("global batch 513"), std::string::npos);
  // 264 GPUs: dp is one of 3, 6, 11, ... 264 (test_batch_fit.cpp); from 512 up is 513, then down 510, 507.
  step_field(state, "global_batch", +1);
  EXPECT_EQ(state.doc["global_batch"], 513);
  frames(1);
  EXPECT_TRUE(state.current.ok) << state.current.error;
  step_field(state, "global_batch", -1);
  EXPECT_EQ(state.doc["global_batch"], 510);
  step_field(state, "global_batch", -1);
  EXPECT_EQ(state.doc["global_batch"], 507);  // 3 x 169
  state.doc["global_batch"] = 512;
  frames(1);
  step_field(state, "nodes", +1);
  EXPECT_EQ(state.doc["nodes"], 34);
  frames(1);
  EXPECT_TRUE(state.current.ok) << state.current.error;
}

TEST_F(Headless, TheMirrorCarriesTheResults) {
  frames(3);
  const io::Json m = mirror_json(state);
  EXPECT_TRUE(m["ok"].get<bool>());
  bool has_step = false;
  for (const auto& r : m["rows"])
    if (r["key"] == "step_time_s") has_step = r["value"].get<double>() == state.current.est.step_time_s;
  EXPECT_TRUE(has_step);
  EXPECT_EQ(m["comparison"]["rows"].size(), 2u);
}

// Everything the canvas shows beside the headline is in the mirror as text, and its HTML
// controls edit the scenario the way the canvas's editor does.
TEST_F(Headless, TheMirrorCarriesBandBillClaimsAndInputs) {
  ASSERT_TRUE(apply_hash(state, "#v1&s=case-a-dense-100b"));
  frames(3);
  ASSERT_TRUE(state.current.ok) << state.current.error;
  io::Json m = mirror_json(state);
  EXPECT_NE(m["band"].get<std::string>().find("Typically within"), std::string::npos);
  const Bill& bill = state.current.cost->result.bill;
  ASSERT_EQ(m["bill"].size(), bill.lines.size() + 1);  // every line, then the total
  const BillLine& first = bill.lines.front();
  // quantity x rate = amount, as a finance reader checks it.
  EXPECT_NE(m["bill"][0].get<std::string>().find(first.unit + " x " + fmt_usd(first.usd_per_unit) + " = " + fmt_usd(first.usd)),
            std::string::npos)
      << m["bill"][0];
  ASSERT_EQ(m["claims"].size(), state.current.cost->claims.size());
  EXPECT_GT(m["claims"].size(), 0u);
  ASSERT_EQ(m["inputs"].size(), 5u);
  EXPECT_EQ(m["inputs"][1]["path"], "instance");
  EXPECT_EQ(m["inputs"][1]["value"], state.current.job.spec.instance_id);
  EXPECT_EQ(m["inputs"][1]["choices"].size(), state.lib.instances.size());

  EXPECT_TRUE(set_mirror_input(state, "nodes", "8"));
  EXPECT_EQ(state.doc["nodes"], 8);
  EXPECT_FALSE(state.doc.contains("chips"));
  frames(2);
  EXPECT_EQ(state.current.job.spec.scenario.nodes, 8);
  EXPECT_EQ(mirror_json(state)["nodes"], 8);
  // Text that is no whole number reaches the scenario's own check, which names the field.
  EXPECT_TRUE(set_mirror_input(state, "global_batch", "12.5"));
  frames(1);
  EXPECT_FALSE(state.current.ok);
  EXPECT_NE(state.current.error.find("global_batch"), std::string::npos) << state.current.error;
  // Hexadecimal or padded text is no number either (strtod alone would read "0x10" as 16).
  for (const char* text : {"0x10", " 8"}) {
    EXPECT_TRUE(set_mirror_input(state, "nodes", text));
    EXPECT_EQ(state.doc["nodes"], text);
    frames(1);
    EXPECT_FALSE(state.current.ok) << text;
    EXPECT_NE(state.current.error.find("nodes"), std::string::npos) << state.current.error;
  }
  EXPECT_FALSE(set_mirror_input(state, "training.epochs", "1")) << "only the main inputs";

  // An import error is listed with the other banners.
  EXPECT_FALSE(import_scenario(state, "broken.json", "{\"model\": 7}"));
  m = mirror_json(state);
  ASSERT_FALSE(m["banners"].empty());
  EXPECT_NE(m["banners"].back().get<std::string>().find("Scenario not imported"), std::string::npos) << m["banners"];
}

// What a scenario's outcome shows, as the CLI prints it, apart from what only a full plan search
// gives: the count of plans it considered (also in the warning that none fits), and the baseline
// instance's own plan and saving.
io::Json shown_result(const Outcome& o) {
  if (!o.ok) return o.error;
  if (o.cost_error) return o.cost_error->what();
  io::Json j = io::result_json(o.job, o);
  j.erase("plans_considered");
  j.erase("splits_compared");
  j.erase("baseline");
  io::Json warnings = io::Json::array();
  for (const auto& w : j["warnings"])
    if (w.get<std::string>().rfind("baseline_instance:", 0) != 0 && w.get<std::string>().rfind("no plan among", 0) != 0)
      warnings.push_back(w);
  j["warnings"] = warnings;
  return j;
}

// Random scenarios (every seed among them) whose pricing includes spot hours, claims and a
// baseline: after a drag that comes back to where it started, the preview shown while the
// control is held is the result shown after the release.
TEST(DragPreview, IsTheReleasedResult) {
  AppState s;
  init(s, nullptr);
  std::mt19937 rng(11);
  auto pick = [&](const std::vector<std::string>& v) { return v[rng() % v.size()]; };
  const io::Json pricings[] = {
      io::Json(nullptr), {{"tier", "spot"}}, {{"mix", {{{"tier", "on_demand"}, {"fraction", 0.25}},
                                                       {{"tier", "spot"}, {"fraction", 0.75}}}}}};
  std::vector<io::Json> docs;
  for (const auto& seed : s.seeds) docs.push_back(seed.doc);
  for (int i = 0; i < 24; ++i) {
    io::Json d = {{"model", pick(s.lib.model_ids())}, {"instance", pick(s.lib.instance_ids())},
                  {"nodes", 1 + static_cast<int>(rng() % 6)}, {"training", {{"tokens", 1e9 * (1 + rng() % 500)}}}};
    if (const io::Json& p = pricings[rng() % 3]; !p.is_null()) d["pricing"] = p;
    if (rng() % 2) d["baseline_instance"] = pick(s.lib.instance_ids());
    if (rng() % 2) d["claims"] = {{{"text", "a week"}, {"wall_time_days", 7}, {"mfu", 0.4}}};
    docs.push_back(d);
  }
  int compared = 0, spot = 0;
  for (const auto& doc : docs) {
    SCOPED_TRACE(doc.dump());
    set_scenario(s, doc, "");
    s.interacting = false;
    update(s, 1e9);
    if (s.current.cost_error && s.current.cost_error->field() == "baseline_instance") {
      // The preview leaves the baseline out, and with it the baseline's own problems.
      s.doc.erase("baseline_instance");
      update(s, 1e9);
    }
    if (!s.current.ok) continue;
    const io::Json released = shown_result(s.current);
    for (const char* field : {"nodes", "training.tokens"}) {
      const io::Json* at = doc_get(s.doc, field);
      if (!at) continue;
      const io::Json start = *at;
      s.interacting = true;
      doc_set(s.doc, field, start.is_number_integer() ? io::Json(start.get<int>() * 2) : io::Json(start.get<double>() * 2));
      update(s, 1e9);
      doc_set(s.doc, field, start);
      update(s, 1e9);
      ASSERT_TRUE(s.preview) << field;
      EXPECT_EQ(io::Json::diff(shown_result(s.current), released), io::Json::array()) << field;
      s.interacting = false;
      update(s, 1e9);
      EXPECT_EQ(io::Json::diff(shown_result(s.current), released), io::Json::array()) << field << " released";
    }
    ++compared;
    if (s.current.cost && s.current.cost->result.wall.expected_spot_interruptions > 0) ++spot;
  }
  EXPECT_GT(compared, 12);
  EXPECT_GT(spot, 3) << "the spot interruption rate must be part of what is compared";
}

// While the nodes slider is held, the comparison follows it: every row shows the figures of the
// held node count (its chips are the released row's), or shows as pending, never the figures of
// the node count the drag started from.
TEST(DragPreview, TheComparisonFollowsTheHeldSlider) {
  AppState s;
  init(s, nullptr);
  io::Json doc = default_scenario();
  doc["compare_instances"] = {"trn2.48xlarge", "p5.48xlarge", "p4d.24xlarge"};
  set_scenario(s, doc, "");
  int previewed = 0, rows = 0;
  for (const int n : {1, 3, 8, 24, 40}) {
    SCOPED_TRACE(n);
    s.interacting = false;
    update(s, 1e9);
    while (work_pending(s)) update(s, 1e9);
    ASSERT_EQ(s.comparison.size(), 3u);
    s.interacting = true;
    doc_set(s.doc, "nodes", n);
    update(s, 1e9);
    ASSERT_TRUE(s.preview);
    ASSERT_TRUE(s.current.ok) << s.current.error;
    EXPECT_EQ(s.current.est.chips, 16 * n);
    std::vector<std::pair<bool, int>> held;
    for (const auto& r : s.comparison) held.emplace_back(r.done, r.done ? r.out.est.chips : 0);
    s.interacting = false;
    update(s, 1e9);
    while (work_pending(s)) update(s, 1e9);
    ASSERT_EQ(s.comparison.size(), held.size());
    for (std::size_t i = 0; i < held.size(); ++i) {
      ++rows;
      if (!held[i].first) continue;
      ++previewed;
      ASSERT_TRUE(s.comparison[i].out.ok) << s.comparison[i].instance_id;
      EXPECT_EQ(held[i].second, s.comparison[i].out.est.chips) << s.comparison[i].instance_id;
    }
  }
  EXPECT_GE(previewed, rows * 2 / 3) << "most rows follow the drag";
  // One hold over every node count: the headline and every row follow each step.
  s.interacting = true;
  for (int n = 1; n <= 1024; n += (n < 128 ? 1 : 37)) {
    doc_set(s.doc, "nodes", n);
    update(s, 1e9);
    ASSERT_TRUE(s.current.ok) << n << ": " << s.current.error;
    EXPECT_EQ(s.current.est.chips, 16 * n);
    for (const auto& r : s.comparison) {
      ASSERT_TRUE(r.done) << n << " " << r.instance_id;
      if (r.out.ok) {
        EXPECT_EQ(r.out.job.spec.scenario.nodes * r.out.job.spec.scenario.instance.chips_per_node, r.out.est.chips);
      }
      if (r.instance_id == "trn2.48xlarge") {
        EXPECT_EQ(r.out.est.chips, 16 * n);
      }
    }
  }
}

// A press may start a drag before any control is active (ImGui activates it while drawing): from
// the press on, the comparison's and scaling's plan searches wait, so that the drag's first frame
// runs none; they run once the button is up.
TEST(DragPreview, APressHoldsTheSearchesBack) {
  AppState s;
  init(s, nullptr);
  io::Json doc = default_scenario();
  doc["compare_instances"] = {"trn2.48xlarge", "p5.48xlarge"};
  set_scenario(s, doc, "");
  update(s, 1e9);  // the scenario itself; its comparison and scaling are queued
  ASSERT_TRUE(s.current.ok) << s.current.error;
  ASSERT_TRUE(work_pending(s));
  s.pointer_held = true;
  update(s, 1e9);
  for (const auto& r : s.comparison) EXPECT_FALSE(r.done) << r.instance_id;
  s.pointer_held = false;
  update(s, 1e9);
  EXPECT_FALSE(work_pending(s));
  for (const auto& r : s.comparison) EXPECT_TRUE(r.done) << r.instance_id;
}

// The page's comparison is `traincalc compare`: the same rows and the same fastest and cheapest.
TEST_F(Headless, ComparisonIsTheCommandLinesCompare) {
  int compared = 0;
  for (const auto& seed : state.seeds) {
    SCOPED_TRACE(seed.id);
    set_scenario(state, seed.doc, seed.id);
    frames(1);
    while (work_pending(state)) update(state, 1e9);
    ASSERT_TRUE(state.current.ok) << state.current.error;
    std::vector<std::string> ids;
    std::vector<const io::Result*> page;
    for (const auto& c : state.comparison) {
      ids.push_back(c.instance_id);
      page.push_back(c.out.ok && c.out.cost ? &c.out : nullptr);
    }
    const auto rows = io::compare_instances(state.current.job, state.lib, ids);
    ASSERT_EQ(rows.size(), page.size());
    const io::Marks marks = io::fastest_and_cheapest(page);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      ASSERT_EQ(rows[i].problem.empty(), page[i] != nullptr) << ids[i];
      if (page[i]) {
        EXPECT_EQ(io::result_json(rows[i].job, rows[i].result), io::result_json(rows[i].job, *page[i])) << ids[i];
      }
      EXPECT_EQ(rows[i].fastest, marks.fastest == static_cast<int>(i)) << ids[i];
      EXPECT_EQ(rows[i].cheapest, marks.cheapest == static_cast<int>(i)) << ids[i];
    }
    compared += static_cast<int>(rows.size());
  }
  EXPECT_GT(compared, 8);
}

// Picking an instance on the other platform (in the page or through its HTML control) never lands
// on an error: a framework that does not run there gives way to the platform's default, and the
// framework picker offers only the stacks that run on the instance's chips.
TEST(InstancePick, AFrameworkOfTheOtherPlatformGivesWay) {
  AppState s;
  init(s, nullptr);
  set_scenario(s, {{"model", "llama3.1-8b"}, {"instance", "p5.48xlarge"}, {"nodes", 2}, {"framework", "megatron"}}, "");
  update(s, 1e9);
  ASSERT_TRUE(s.current.ok) << s.current.error;
  set_instance(s, "trn2.48xlarge");
  EXPECT_EQ(doc_get(s.doc, "framework"), nullptr);
  update(s, 1e9);
  ASSERT_TRUE(s.current.ok) << s.current.error;
  EXPECT_EQ(s.current.job.spec.scenario.framework.id, "neuronx-distributed");
  doc_set(s.doc, "framework", "fsdp");  // runs on both: kept
  ASSERT_TRUE(set_mirror_input(s, "instance", "p4d.24xlarge"));
  ASSERT_NE(doc_get(s.doc, "framework"), nullptr);
  EXPECT_EQ(*doc_get(s.doc, "framework"), "fsdp");
  const auto on_trn = frameworks_for(s, "trn2.48xlarge");
  EXPECT_EQ(std::count(on_trn.begin(), on_trn.end(), "megatron"), 0);
  EXPECT_EQ(std::count(on_trn.begin(), on_trn.end(), "fsdp"), 1);
  const auto on_gpu = frameworks_for(s, "p5.48xlarge");
  EXPECT_EQ(std::count(on_gpu.begin(), on_gpu.end(), "neuronx-distributed"), 0);
}

// A fair comparison (issue 12): the scenario's own instance is always a row, rows keep chips or
// nodes equal as asked, and a one-off port is billed only on the rows of its software stack.
TEST(Compare, OwnRowEqualSizesAndPortingWhereItBelongs) {
  const io::PresetLibrary lib = io::load_builtin_presets();
  io::Json doc = {{"model", "llama3.1-8b"}, {"instance", "trn1.32xlarge"}, {"nodes", 4},
                  {"training", {{"tokens", 1e9}}},
                  {"overheads", {{"engineering", {{"person_weeks", 4}, {"usd_per_week", 5000}}}}}};
  const io::Job job = io::parse_job(doc, lib, "t");
  const auto ids = io::comparison_ids(job, {"p4d.24xlarge", "trn1.32xlarge", "p4d.24xlarge"});
  ASSERT_EQ(ids, (std::vector<std::string>{"trn1.32xlarge", "p4d.24xlarge"}));
  const auto rows = io::compare_instances(job, lib, ids);
  ASSERT_TRUE(rows[0].problem.empty() && rows[1].problem.empty()) << rows[0].problem << rows[1].problem;
  EXPECT_EQ(rows[1].job.spec.scenario.nodes, 4);  // equal nodes: the cluster was given in nodes
  EXPECT_NEAR(io::cost_of(rows[0].result).result.bill.engineering_usd, 20000, 1e-9);
  EXPECT_EQ(io::cost_of(rows[1].result).result.bill.engineering_usd, 0);  // the GPU row needs no port
  const auto notes = io::comparison_notes(rows);
  EXPECT_NE(std::find(notes.begin(), notes.end(), "rows keep the node count equal (compare_at: nodes)"), notes.end());
  doc["compare_at"] = "chips";  // 4 x 16 Trainium1 chips -> 64 A100 = 8 p4d.24xlarge
  const auto at_chips = io::compare_instances(io::parse_job(doc, lib, "t"), lib, ids);
  EXPECT_EQ(at_chips[1].job.spec.scenario.nodes, 8);
  // Every row carries its price and its own warnings in every table format.
  const io::Table t = io::compare_table(rows, io::TableStyle::plain);
  ASSERT_EQ(t.header.back(), "warnings");
  EXPECT_EQ(t.rows[1][t.header.size() - 4], "us-east-1");
}

// A plan fixed for the scenario's hardware is kept on a row of the same chip and node size (p5e
// and p5en: eight H200s), and on other hardware the search chooses the whole plan: tp 16 over 64
// NeuronCores of a trn2.48xlarge would span two p5.48xlarge nodes. A note says so.
TEST(Compare, AFixedPlanStaysOnItsOwnHardware) {
  const io::PresetLibrary lib = io::load_builtin_presets();
  io::Json doc = {{"model", "llama3.1-70b"}, {"instance", "trn2.48xlarge"}, {"nodes", 8},
                  {"parallel", {{"tp", 16}, {"pp", 4}, {"dp", "auto"}}}, {"training", {{"tokens", 1e9}}}};
  const auto rows = io::compare_instances(io::parse_job(doc, lib, "t"), lib, {"trn2.48xlarge", "p5.48xlarge"});
  ASSERT_TRUE(rows[0].problem.empty() && rows[1].problem.empty()) << rows[0].problem << rows[1].problem;
  EXPECT_EQ(rows[0].result.est.plan.tp, 16);
  EXPECT_LE(rows[1].result.est.plan.tp, 8);
  const auto notes = io::comparison_notes(rows);
  EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
    return n.find("fixed plan is for trn2.48xlarge's hardware") != std::string::npos;
  }));
  doc["instance"] = "p5e.48xlarge";
  doc["parallel"] = {{"tp", 4}, {"pp", 2}, {"dp", "auto"}};
  const auto same = io::compare_instances(io::parse_job(doc, lib, "t"), lib, {"p5e.48xlarge", "p5en.48xlarge"});
  ASSERT_TRUE(same[1].problem.empty()) << same[1].problem;
  EXPECT_EQ(same[1].result.est.plan.tp, 4);
  EXPECT_EQ(same[1].result.est.plan.pp, 2);
  const auto same_notes = io::comparison_notes(same);
  EXPECT_FALSE(std::any_of(same_notes.begin(), same_notes.end(), [](const std::string& n) {
    return n.find("fixed plan") != std::string::npos;
  }));
  // A context-parallel degree left to the search is no fixed plan, and stays searched; an exact
  // global batch is no plan knob and stays asked for.
  PlanRequest cp_auto;
  cp_auto.cp = kAuto;
  cp_auto.exact_global_batch = true;
  EXPECT_FALSE(io::fixes_plan(cp_auto));
  EXPECT_EQ(io::searched_plan(cp_auto).cp, kAuto);
  EXPECT_TRUE(io::searched_plan(cp_auto).exact_global_batch);
  cp_auto.last_stage_layers = 3;
  EXPECT_TRUE(io::fixes_plan(cp_auto));
}

// A plan that does not fit in memory is neither the fastest nor the cheapest, however short and
// cheap its estimate; an unpriced bill is not the cheapest.
TEST(Compare, OnlyPlansThatFitAreFastestOrCheapest) {
  auto result = [](double wall_s, double usd, bool fits, bool priced) {
    io::Result r;
    r.est.memory.fits = fits;
    r.cost.emplace();
    r.cost->result.wall.total_s = wall_s;
    r.cost->result.bill.total_usd = usd;
    r.cost->result.bill.priced = priced;
    return r;
  };
  const io::Result no_fit = result(10, 10, false, true), slow = result(300, 50, true, true),
                   fast = result(100, 90, true, true), unpriced = result(200, 1, true, false);
  const io::Marks m = io::fastest_and_cheapest({&no_fit, nullptr, &slow, &fast, &unpriced});
  EXPECT_EQ(m.fastest, 3);
  EXPECT_EQ(m.cheapest, 2);
  EXPECT_EQ(io::fastest_and_cheapest({&no_fit, nullptr}).fastest, -1);
}

// Every ranged field a link carries: a value past either end of its range is refused by the file
// parser and by the link reader alike, each naming the field.
TEST(Schema, FileAndLinkShareEachRange) {
  const io::PresetLibrary lib = io::load_builtin_presets();
  int checked = 0;
  for (const auto& f : io::scenario_fields()) {
    if (f.hash_key.empty() || !(f.min < f.max)) continue;
    const std::string path(f.path);
    const auto items = path.find("[]");  // incidents[].hours: the first item's, in.0.hours
    for (const double bad : {f.min - 1, 2 * f.max + 1}) {
      SCOPED_TRACE(path + " = " + std::to_string(bad));
      io::Json doc = {{"model", "llama3.1-8b"}, {"instance", "p5.48xlarge"}, {"training", {{"tokens", 1e9}}}};
      if (f.path.rfind("training.", 0) == 0) doc["training"] = io::Json::object();
      // An owned cluster needs its capex before any other of its fields is read.
      if (f.path.rfind("owned_cluster.", 0) == 0) doc["owned_cluster"] = {{"capex_usd_per_node", 1000}};
      std::string file_path = path, link = std::string(f.hash_key) + "=" + io::format_number(bad);
      if (items != std::string::npos) {
        file_path = path.substr(0, items) + "[0]" + path.substr(items + 2);
        const std::string field = path.substr(items + 3);
        // An item of the kind that has the field: an OOM has hours, failed runs a progress.
        io::Json item = field == "hours"      ? io::Json{{"kind", "oom"}}
                        : field == "progress" ? io::Json{{"kind", "failed_runs"}, {"fraction", 0.1}}
                                              : io::Json{{"kind", "throughput_regression"}, {"fraction", 0.1}, {"days", 1}};
        item[field] = bad;
        doc[path.substr(0, items)] = io::Json::array({item});
        const std::string list(f.hash_key.substr(0, f.hash_key.find('.')));
        link = list + "=1&" + io::link_key(file_path) + "=" + io::format_number(bad);
      } else {
        doc_set(doc, path, bad);
      }
      std::string file_field;
      try {
        const io::Job job = io::parse_job(doc, lib, "schema");
        if (job.cost_error) file_field = job.cost_error->field();
      } catch (const io::InputError& e) {
        file_field = e.field();
      }
      EXPECT_EQ(file_field, file_path);
      std::string link_field;
      try {
        io::parse_url_hash("#v1&" + link, io::Json::object());
      } catch (const io::InputError& e) {
        link_field = e.field();
      }
      EXPECT_EQ(link_field, io::link_key(file_path));
      ++checked;
    }
  }
  EXPECT_GT(checked, 80);
  // The parser maps the precision field's values onto the Precision enumerators, in order.
  EXPECT_EQ(io::scenario_field("precision").values.size(), static_cast<std::size_t>(kPrecisionCount));
}

TEST(UrlState, RoundTripsEveryEditableField) {
  const io::Json doc = {
      {"model", "llama3.1-70b"}, {"instance", "trn2.48xlarge"}, {"nodes", 16}, {"precision", "fp8"},
      {"compare_instances", {"trn2.48xlarge", "p5.48xlarge"}}, {"micro_batch", "auto"}, {"global_batch", 512},
      {"parallel", {{"tp", 8}, {"pp", "auto"}, {"zero", 1}, {"sequence_parallel", true}, {"last_stage_layers", 6}}},
      {"recompute", "full"},
      {"recompute_layers", 12}, {"fp32_loss_logits", false}, {"fp8_scaling", "rowwise"}, {"async_tp", true},
      {"training", {{"mode", "lora"}, {"samples", 52000}, {"epochs", 3}, {"lora_rank", 16}}},
      {"flash_attention", false}, {"framework", "megatron"},
      {"pricing", {{"mix", {{{"tier", "on_demand"}, {"fraction", 0.2}, {"fallback", "capacity_block"}},
                            {{"tier", "custom"}, {"fraction", 0.8}, {"usd_per_hour", 12.5}}}}}},
      {"overheads", {{"compile", {{"first_s", 380}}}, {"checkpoint", {{"interval_min", "auto"}}}, {"queue_hours", 4}}},
      {"campaign", {{"runs", 2.3}}}, {"energy", {{"usd_per_kwh", 0.1}}}, {"deadline_days", 30},
      {"baseline_instance", "p4d.24xlarge"}};
  const std::string h = io::url_hash(doc);
  EXPECT_LE(h.size(), 400u) << h;
  EXPECT_TRUE(io::hash_reproduces(doc, h, io::Json::object())) << h << "\n" << io::parse_url_hash(h, {}).scenario.dump();
  EXPECT_EQ(h.rfind("#v1&", 0), 0u);
}

TEST(UrlState, SeedLinksCarryOnlyTheChanges) {
  AppState s;
  init(s, nullptr);
  ASSERT_FALSE(s.seeds.empty());
  for (const auto& c : s.seeds) {
    const std::string f = c.id;
    io::Json seed = io::seed_document(f);
    ASSERT_FALSE(seed.is_null()) << f;
    EXPECT_EQ(io::url_hash(seed, f), "#v1&s=" + f);
    seed["nodes"] = 3;
    seed.erase("chips");
    const std::string h = io::url_hash(seed, f);
    EXPECT_TRUE(io::hash_reproduces(seed, h, io::Json::object())) << h;
  }
}

TEST(UrlState, RandomInputNeverCrashes) {
  std::mt19937 rng(42);
  const std::string alphabet = "v1&=#%.,:-_abcmnpstio0123456789eE+zZ\x01\xff";
  int errors = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string h = i % 2 ? "#v1&" : "";
    const int len = static_cast<int>(rng() % 60);
    for (int k = 0; k < len; ++k) h += alphabet[rng() % alphabet.size()];
    try {
      io::parse_url_hash(h, io::Json::object());
    } catch (const io::InputError& e) {
      ++errors;
      EXPECT_FALSE(std::string(e.what()).empty());
    }
  }
  EXPECT_GT(errors, 0);
  EXPECT_THROW(io::parse_url_hash("#v1&m=" + std::string(3000, 'a'), io::Json::object()), io::InputError);
}

}  // namespace
}  // namespace tc::ui
