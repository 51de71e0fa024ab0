// A scenario as a short, versioned URL hash, so that a link reproduces what the user sees:
//   #v1&m=llama3.1-70b&i=trn2.48xlarge&c=trn2.48xlarge,p5.48xlarge&n=16&tt=1e12
// The hash is untrusted input (anyone can send a link): every key and value is checked, and any
// problem is an InputError naming the hash key, never a crash or a silently different scenario.
// Semantic checks (unknown model, invalid plan) stay with parse_scenario, which reads the result.
//
// Keys of version 1: each scenario field's `link` key (io/schema.hpp, docs/scenario-fields.md),
// checked against its row's type and range; flags as 0|1, id lists comma-separated, and
//   s     seed scenario to start from (presets/scenarios/<s>.json); the other keys override it
//   pr    pricing.mix (or the single-tier form): tier:fraction[:fb=tier][:u=usd_per_hour][:d=discount],
//         comma-separated; tier:48i bills 48 instances at that tier (mix by instances)
//   ir    pricing.instance_regions: instance:region, comma-separated
//   o.<section>.<field>, k.<field>, oc.<field>, e.<field>   overheads, campaign, owned cluster, energy
//   in=N&in.<i>.<field>   the N incidents (a list travels whole; in=0: none)
//   embed 1: compact layout without the page's chrome (not part of the scenario)
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "io/json_util.hpp"

namespace tc::io {

constexpr std::size_t kMaxHashLength = 2048;

struct UrlState {
  Json scenario;            // the scenario document the hash describes
  std::string seed;         // the seed it starts from ("" for none)
  bool embed = false;
  bool has_scenario = false;  // false: the hash names no scenario (empty, or only embed=1)
};

// Parses location.hash (with or without the leading '#'). The scenario starts from the seed named
// by "s" (an embedded presets/scenarios/<s>.json) or else from `base`. Throws InputError naming
// the key ("n: must be an integer between 1 and 1000000 (got \"x\")").
UrlState parse_url_hash(std::string_view hash, const Json& base);

// The hash of a scenario document, starting with '#'. With a seed, only the keys whose values
// differ from the seed's are written. Fields without a key (claims, an inline model or instance)
// are carried only through the seed: hash_reproduces() tells whether the link is exact.
std::string url_hash(const Json& scenario, const std::string& seed = "", bool embed = false);

// The key a link writes a scenario path under ("overheads.storage.dataset_gb": o.storage.dataset_gb,
// "incidents[2].hours": in.2.hours), or "" when links do not carry it.
std::string link_key(std::string_view path);

// The seed scenario document of an id ("case-a" for presets/scenarios/case-a.json), or null.
Json seed_document(std::string_view seed_id);

// Whether parsing `hash` over `base` gives back `scenario` (numbers compared as numbers).
bool hash_reproduces(const Json& scenario, const std::string& hash, const Json& base);

}  // namespace tc::io
