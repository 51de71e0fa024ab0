// libFuzzer target: a scenario file, as `traincalc estimate FILE` reads it.
#include <cstddef>
#include <cstdint>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const auto& lib = tc::fuzz::builtin();
  try {
    tc::fuzz::run_pipeline(tc::io::parse_job_text(text, lib, "fuzz.json"), lib);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
  }
  return 0;
}
