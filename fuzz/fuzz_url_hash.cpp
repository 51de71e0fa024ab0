// libFuzzer target: the URL hash of a shared link (#v1&m=...&n=16), decoded over the default
// scenario as the web page does, then parsed and estimated. A decoded hash must also survive a
// round trip: the hash written for its scenario is accepted and encodes the same again.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "fuzz_common.hpp"
#include "io/url_state.hpp"

namespace {
// The key=value pairs of a hash, in any order.
std::multiset<std::string> tokens(const std::string& hash) {
  std::multiset<std::string> out;
  std::size_t start = 0;
  while (start <= hash.size()) {
    std::size_t amp = hash.find('&', start);
    if (amp == std::string::npos) amp = hash.size();
    out.insert(hash.substr(start, amp - start));
    start = amp + 1;
  }
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string hash(reinterpret_cast<const char*>(data), size);
  static const tc::io::Json base = tc::io::seed_document("default");
  const auto& lib = tc::fuzz::builtin();
  tc::io::UrlState state;
  try {
    state = tc::io::parse_url_hash(hash, base);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
    return 0;
  }
  (void)state.scenario.dump();  // throws on invalid UTF-8
  if (!state.has_scenario) return 0;
  // Encoding is stable: the hash written for a decoded scenario decodes to a scenario with the
  // same hash. (As a set of key=value pairs; not JSON equality: {"tier": t, "fallback": f} comes back as the equivalent
  // {"mix": [{"tier": t, "fraction": 1, "fallback": f}]}.)
  const std::string again = tc::io::url_hash(state.scenario, state.seed, state.embed);
  tc::io::UrlState state2;
  try {
    state2 = tc::io::parse_url_hash(again, base);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::fail("the hash written for a decoded hash is rejected: " + again + ": " + e.what());
  }
  const std::string third = tc::io::url_hash(state2.scenario, state2.seed, state2.embed);
  if (tokens(third) != tokens(again)) tc::fuzz::fail("hash not stable: " + again + " then " + third);
  try {
    tc::fuzz::run_pipeline(tc::io::parse_job(state.scenario, lib, "hash"), lib);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
  }
  // `traincalc estimate --link`: the same text over an empty base, errors named by link key.
  try {
    tc::fuzz::run_pipeline(tc::io::parse_job_link(hash, lib), lib);
  } catch (const tc::io::InputError& e) {
    tc::fuzz::expect_message(e);
  }
  return 0;
}
