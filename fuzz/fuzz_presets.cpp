// libFuzzer target: a preset file merged over the built-in presets (`traincalc --presets DIR`),
// then a scenario on the entries it defines.
#include <cstddef>
#include <cstdint>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  tc::io::PresetLibrary lib = tc::fuzz::builtin();
  const std::size_t models = lib.models.size(), instances = lib.instances.size();
  try {
    tc::io::merge_preset_json(lib, "fuzz.json", text);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
    // All or nothing: a rejected file leaves the library as it was.
    if (lib.models.size() != models || lib.instances.size() != instances)
      tc::fuzz::fail("a rejected preset file changed the library");
    return 0;
  }
  // The last model and instance (new ids are appended; replaced ones keep their place).
  tc::io::Json doc = {{"model", lib.models.back().id},
                      {"instance", lib.instances.back().id},
                      {"nodes", 2},
                      {"training", {{"tokens", 1e10}}}};
  // A replaced entry may sit anywhere: use the first id of the file's own list when it has one.
  try {
    const tc::io::Json file = tc::io::Json::parse(text);
    for (const char* kind : {"models", "instances"}) {
      if (file.contains(kind) && file[kind].is_array() && !file[kind].empty() &&
          file[kind][0].contains("id") && file[kind][0]["id"].is_string())
        doc[std::string(kind) == "models" ? "model" : "instance"] = file[kind][0]["id"];
    }
  } catch (const tc::io::Json::exception&) {
  }
  try {
    tc::fuzz::run_pipeline(tc::io::parse_job(doc, lib, "fuzz"), lib);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
  }
  return 0;
}
