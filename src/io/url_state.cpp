#include "io/url_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "core/text.hpp"
#include "io/embedded.hpp"
#include "io/schema.hpp"

namespace tc::io {

namespace {

constexpr std::size_t kMaxValueLength = 256;
constexpr std::size_t kMaxListItems = 16;

// The fields a link carries, in the order it writes them.
const std::vector<FieldDef>& key_defs() {
  static const std::vector<FieldDef> defs = [] {
    std::vector<FieldDef> v;
    for (const auto& f : scenario_fields())
      if (!f.hash_key.empty()) v.push_back(f);
    return v;
  }();
  return defs;
}

// A row of a list's items ("incidents[].hours"): the link writes it <key prefix>.<i>.<field>.
bool is_item_row(const FieldDef& d) { return d.path.find("[]") != std::string_view::npos; }
// The list of an item row ("incidents"), and the item's field ("hours").
std::string_view list_of(const FieldDef& d) { return d.path.substr(0, d.path.find("[]")); }
std::string_view item_field(const FieldDef& d) { return d.path.substr(d.path.find("[].") + 3); }
// The link key of a list's item field: in.<i>.hours for "in.hours".
std::string item_key(const FieldDef& d, std::size_t i) {
  const auto dot = d.hash_key.find('.');
  return std::string(d.hash_key.substr(0, dot)) + "." + std::to_string(i) + std::string(d.hash_key.substr(dot));
}

bool is_name_char(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_'; }

// Values as quoted in messages: printable, short.
std::string quote(std::string_view v) {
  std::string out = "\"";
  for (char ch : v.substr(0, 40)) out += (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ? '?' : ch;
  if (v.size() > 40) out += "...";
  return out + "\"";
}

int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view v, const std::string& key) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] == '%') {
      const int hi = i + 2 < v.size() ? hex_value(v[i + 1]) : -1;
      const int lo = i + 2 < v.size() ? hex_value(v[i + 2]) : -1;
      if (hi < 0 || lo < 0) throw InputError(key, "malformed percent-escape in " + quote(v));
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += v[i];
    }
  }
  for (char ch : out)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
      throw InputError(key, "control character in value");
  if (const std::size_t at = invalid_utf8_at(out); at != std::string::npos)
    throw InputError(key, "not UTF-8 text (byte " + std::to_string(at) + " of the decoded value)");
  return out;
}

std::string check_id(const std::string& v, const std::string& key) {
  // The same alphabet and length as a preset id (is_id_char): every id a preset file can define
  // reads back from the link the page writes for it.
  if (v.empty() || v.size() > kMaxIdLength || !std::all_of(v.begin(), v.end(), is_id_char))
    throw InputError(key, "must be an id of letters, digits, '.', '_', '-' or '+' (got " + quote(v) + ")");
  return v;
}

// A decimal number, all of the text, finite, within [min, max].
double parse_number(const std::string& v, const std::string& key, double min, double max) {
  const std::optional<double> x = v.size() <= 32 ? whole_number(v) : std::nullopt;
  if (!x) throw InputError(key, "must be a number (got " + quote(v) + ")");
  // The same check as a number in a scenario file: finite, no denormal, in range, no -0.
  return check_number(*x, key, min, max);
}

long long parse_integer(const std::string& v, const std::string& key, double min, double max) {
  const double x = parse_number(v, key, min, max);
  if (x != std::floor(x)) throw InputError(key, "must be an integer (got " + quote(v) + ")");
  return static_cast<long long>(x);
}

// Shortest text that reads back as the same double.
std::string number_text(double x) {
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", x);
    std::string s = buf;
    // 1e12 is shorter than 1000000000000.
    std::size_t zeros = 0;
    while (zeros < s.size() && s[s.size() - 1 - zeros] == '0') ++zeros;
    if (zeros > 3) return s.substr(0, s.size() - zeros) + "e" + std::to_string(zeros);
    return s;
  }
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  std::string s = buf;
  const auto e = s.find("e+");
  if (e != std::string::npos) s.erase(e + 1, 1);
  return s;
}

Json::json_pointer pointer_of(std::string_view dotted) {
  std::string p;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    const auto dot = dotted.find('.', start);
    p += "/";
    p += std::string(dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return Json::json_pointer(p);
}

// Sets a dotted path, turning non-object parents into objects (the hash overrides the base).
void set_path(Json& doc, std::string_view dotted, Json value) {
  Json* cur = &doc;
  std::size_t start = 0;
  for (;;) {
    const auto dot = dotted.find('.', start);
    const std::string part(dotted.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (!cur->is_object()) *cur = Json::object();
    if (dot == std::string_view::npos) {
      (*cur)[part] = std::move(value);
      return;
    }
    cur = &(*cur)[part];
    start = dot + 1;
  }
}

void erase_path(Json& doc, std::string_view dotted) {
  const auto ptr = pointer_of(dotted);
  if (!doc.contains(ptr)) return;
  Json& parent = doc[ptr.parent_pointer()];
  if (parent.is_object()) parent.erase(ptr.back());
}

const Json* find_path(const Json& doc, std::string_view dotted) {
  const auto ptr = pointer_of(dotted);
  return doc.contains(ptr) ? &doc.at(ptr) : nullptr;
}

Json parse_price_mix(const std::string& v, const std::string& key) {
  Json mix = Json::array();
  std::size_t start = 0;
  bool by_instances = false, by_fraction = false;
  while (start <= v.size()) {
    const auto comma = v.find(',', start);
    const std::string entry = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (mix.size() >= kMaxListItems) throw InputError(key, "more than 16 tiers");
    std::vector<std::string> parts;
    std::size_t s = 0;
    while (s <= entry.size()) {
      const auto colon = entry.find(':', s);
      parts.push_back(entry.substr(s, colon == std::string::npos ? std::string::npos : colon - s));
      if (colon == std::string::npos) break;
      s = colon + 1;
    }
    if (parts.size() < 2)
      throw InputError(key, "each tier is tier:fraction (got " + quote(entry) + ")");
    Json t;
    t["tier"] = check_id(parts[0], key);
    if (!parts[1].empty() && parts[1].back() == 'i') {
      t["instances"] = parse_integer(parts[1].substr(0, parts[1].size() - 1), key, 0, 1000000);
      by_instances = true;
    } else {
      t["fraction"] = parse_number(parts[1], key, 0, 1);
      by_fraction = true;
    }
    for (std::size_t k = 2; k < parts.size(); ++k) {
      const std::string& opt = parts[k];
      if (opt.rfind("fb=", 0) == 0) {
        t["fallback"] = check_id(opt.substr(3), key);
      } else if (opt.rfind("u=", 0) == 0) {
        t["usd_per_hour"] = parse_number(opt.substr(2), key, 0, 1e6);
      } else if (opt.rfind("d=", 0) == 0) {
        t["discount"] = parse_number(opt.substr(2), key, 0, 1);
      } else {
        throw InputError(key, "unknown tier option " + quote(opt) + " (fb=, u= or d=)");
      }
    }
    mix.push_back(std::move(t));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (by_instances && by_fraction)
    throw InputError(key, "mix tiers by fraction or by instances (Ni), not both");
  return mix;
}

// "trn2.48xlarge:us-east-2,p5.48xlarge:us-west-2": an id for each id.
Json parse_id_map(const std::string& v, const std::string& key) {
  Json map = Json::object();
  std::size_t start = 0;
  while (start <= v.size()) {
    const auto comma = v.find(',', start);
    const std::string entry = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto colon = entry.find(':');
    if (colon == std::string::npos) throw InputError(key, "each entry is id:id (got " + quote(entry) + ")");
    const std::string from = check_id(entry.substr(0, colon), key);
    if (map.contains(from)) throw InputError(key, quote(from) + " given twice");
    if (map.size() >= kMaxListItems) throw InputError(key, "more than 16 entries");
    map[from] = check_id(entry.substr(colon + 1), key);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return map;
}

Json parse_value(const FieldDef& d, const std::string& v, const std::string& key) {
  switch (d.type) {
    case FieldType::id:
      return check_id(v, key);
    case FieldType::id_list: {
      Json arr = Json::array();
      std::size_t start = 0;
      while (start <= v.size()) {
        const auto comma = v.find(',', start);
        arr.push_back(check_id(v.substr(start, comma == std::string::npos ? std::string::npos : comma - start), key));
        if (arr.size() > kMaxListItems) throw InputError(key, "more than 16 instances");
        if (comma == std::string::npos) break;
        start = comma + 1;
      }
      return arr;
    }
    case FieldType::integer:
      return parse_integer(v, key, d.min, d.max);
    case FieldType::integer_auto:
      if (v == "auto") return "auto";
      return parse_integer(v, key, d.min, d.max);
    case FieldType::number:
      return check_zero_or_at_least(parse_number(v, key, d.min, d.max), key, d.min_positive);
    case FieldType::number_auto:
      if (v == "auto") return "auto";
      return check_zero_or_at_least(parse_number(v, key, d.min, d.max), key, d.min_positive);
    case FieldType::enumeration:
      for (auto allowed : d.values)
        if (v == allowed) return v;
      {
        std::string list;
        for (auto allowed : d.values) append_item(list, std::string(allowed));
        throw InputError(key, "must be one of " + list + " (got " + quote(v) + ")");
      }
    case FieldType::flag:
      if (v == "1") return true;
      if (v == "0") return false;
      throw InputError(key, "must be 0 or 1 (got " + quote(v) + ")");
    case FieldType::flag_auto:
      if (v == "1") return true;
      if (v == "0") return false;
      if (v == "auto") return "auto";
      throw InputError(key, "must be 0, 1 or auto (got " + quote(v) + ")");
    case FieldType::price_mix:
      return parse_price_mix(v, key);
    case FieldType::id_map:
      return parse_id_map(v, key);
    case FieldType::list:  // the number of items
      return parse_integer(v, key, 0, kMaxListItems);
    case FieldType::text:  // percent-decoded already, without control characters
      return v;
    case FieldType::section:
      break;  // not carried by links
  }
  return nullptr;
}

std::string price_mix_text(const Json& mix) {
  std::string text;
  for (const auto& t : mix) {
    if (!t.is_object() || !t.contains("tier") || !t["tier"].is_string()) continue;
    std::string e = t["tier"].get<std::string>() + ":";
    if (t.contains("instances") && t["instances"].is_number())
      e += number_text(t["instances"].get<double>()) + "i";
    else if (t.contains("fraction") && t["fraction"].is_number())
      e += number_text(t["fraction"].get<double>());
    else
      e += "1";
    if (t.contains("fallback") && t["fallback"].is_string()) e += ":fb=" + t["fallback"].get<std::string>();
    if (t.contains("usd_per_hour") && t["usd_per_hour"].is_number())
      e += ":u=" + number_text(t["usd_per_hour"].get<double>());
    if (t.contains("discount") && t["discount"].is_number()) e += ":d=" + number_text(t["discount"].get<double>());
    append_item(text, e, ",");
  }
  return text;
}

// The pricing tiers of a document: its mix, or its single-tier form {"tier", "fallback",
// "usd_per_hour", "discount"} as a one-entry mix.
const Json* tier_mix(const Json& doc, Json& single) {
  if (const Json* m = find_path(doc, "pricing.mix")) return m;
  const Json* pr = find_path(doc, "pricing");
  if (pr == nullptr || !pr->is_object() || !pr->contains("tier")) return nullptr;
  Json e = Json::object();
  for (const char* k : {"tier", "fallback", "usd_per_hour", "discount"})
    if (pr->contains(k)) e[k] = (*pr)[k];
  single = Json::array({e});
  return &single;
}

// A value's text in a link; empty when the value is not of the row's type (a string where a
// number goes, an inline object): such a value is carried only through a seed.
std::string value_text(const FieldDef& d, const Json& v) {
  const bool is_auto = v.is_string() && v.get<std::string>() == "auto";
  switch (d.type) {
    case FieldType::id:
    case FieldType::enumeration:
    case FieldType::text:
      return v.is_string() ? v.get<std::string>() : "";
    case FieldType::id_list: {
      std::string text;
      if (v.is_array())
        for (const auto& x : v)
          if (x.is_string()) append_item(text, x.get<std::string>(), ",");
      return text;
    }
    case FieldType::integer:
    case FieldType::number:
      return v.is_number() ? number_text(v.get<double>()) : "";
    case FieldType::integer_auto:
    case FieldType::number_auto:
      return v.is_number() ? number_text(v.get<double>()) : is_auto ? "auto" : "";
    case FieldType::flag:
      return v.is_boolean() ? (v.get<bool>() ? "1" : "0") : "";
    case FieldType::flag_auto:
      return v.is_boolean() ? (v.get<bool>() ? "1" : "0") : is_auto ? "auto" : "";
    case FieldType::price_mix:
      return v.is_array() ? price_mix_text(v) : "";
    case FieldType::id_map: {
      std::string text;
      if (v.is_object())
        for (const auto& [k, x] : v.items())
          if (x.is_string()) append_item(text, k + ":" + x.get<std::string>(), ",");
      return text;
    }
    case FieldType::list:
      return v.is_array() ? std::to_string(v.size()) : "";
    case FieldType::section:
      return "";
  }
  return "";
}

// A list as its count (in=2) and its items' fields (in.0.kind=oom&in.0.hours=4&in.1.kind=...).
void encode_list(std::vector<std::pair<std::string, std::string>>& out, const FieldDef& list, const Json& arr) {
  if (!arr.is_array() || arr.size() > kMaxListItems) return;
  out.emplace_back(list.hash_key, std::to_string(arr.size()));
  for (std::size_t i = 0; i < arr.size(); ++i)
    for (const auto& d : key_defs())
      if (is_item_row(d) && list_of(d) == list.path && arr[i].is_object() && arr[i].contains(std::string(item_field(d)))) {
        const std::string text = value_text(d, arr[i][std::string(item_field(d))]);
        if (!text.empty()) out.emplace_back(item_key(d, i), text);
      }
}

// key -> value, in the order of key_defs(), for one document. Values that have no key (inline
// objects, claims, strings where numbers go) are left out.
std::vector<std::pair<std::string, std::string>> encode_fields(const Json& doc) {
  std::vector<std::pair<std::string, std::string>> out;
  if (!doc.is_object()) return out;
  for (const auto& d : key_defs()) {
    if (is_item_row(d)) continue;
    Json single;
    const Json* v = d.type == FieldType::price_mix ? tier_mix(doc, single) : find_path(doc, d.path);
    if (v == nullptr) continue;
    if (d.type == FieldType::list) {
      encode_list(out, d, *v);
      continue;
    }
    const std::string text = value_text(d, *v);
    if (!text.empty()) out.emplace_back(d.hash_key, text);
  }
  return out;
}

// '+' is an id character but stays escaped: a form decoder would read it as a space.
bool safe_for_hash(char ch) { return (is_id_char(ch) && ch != '+') || ch == ',' || ch == ':' || ch == '='; }

std::string percent_encode(const std::string& v) {
  std::string out;
  for (char ch : v) {
    if (safe_for_hash(ch)) {
      out += ch;
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(ch));
      out += buf;
    }
  }
  return out;
}

// Numbers compared by value, so that 1e12 (double) equals 1000000000000 (integer).
bool same_json(const Json& a, const Json& b) {
  if (a.is_number() && b.is_number()) return a.get<double>() == b.get<double>();
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [k, v] : a.items())
      if (!b.contains(k) || !same_json(v, b.at(k))) return false;
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same_json(a[i], b[i])) return false;
    return true;
  }
  return a == b;
}

}  // namespace

Json seed_document(std::string_view seed_id) {
  const std::string path = "presets/scenarios/" + std::string(seed_id) + ".json";
  for (const auto& f : embedded_presets())
    if (path == f.path) return parse_json(f.contents, f.path);
  return nullptr;
}

namespace {

// The link's key=value pairs, percent-decoded; `versioned`: it starts with v1.
std::vector<std::pair<std::string, std::string>> hash_pairs(std::string_view hash, bool& versioned) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::set<std::string> seen;
  std::size_t start = 0;
  bool first = true;
  while (start < hash.size()) {
    auto amp = hash.find('&', start);
    if (amp == std::string_view::npos) amp = hash.size();
    const std::string_view token = hash.substr(start, amp - start);
    start = amp + 1;
    if (token.empty()) continue;
    const auto eq = token.find('=');
    const std::string key(token.substr(0, eq));
    if (key.empty() || key.size() > 48 ||
        !std::all_of(key.begin(), key.end(), [](char ch) { return is_name_char(ch) || ch == '.'; }))
      throw InputError("hash", "malformed key " + quote(key));
    if (first && eq == std::string_view::npos && key.size() > 1 && key[0] == 'v') {
      if (key != "v1") throw InputError("v", "unsupported version " + quote(key) + " (this page reads v1)");
      versioned = true;
      first = false;
      continue;
    }
    first = false;
    if (eq == std::string_view::npos) throw InputError(key, "has no value (key=value)");
    const std::string_view raw = token.substr(eq + 1);
    if (raw.size() > kMaxValueLength) throw InputError(key, "value longer than 256 characters");
    if (!seen.insert(key).second) throw InputError(key, "given twice");
    pairs.emplace_back(key, percent_decode(raw, key));
  }
  return pairs;
}

// The row of an item key (in.2.hours: incidents[].hours), or null. The index is a plain decimal
// below the list's limit.
const FieldDef* item_row(const std::string& key) {
  const auto dot1 = key.find('.');
  const auto dot2 = dot1 == std::string::npos ? dot1 : key.find('.', dot1 + 1);
  if (dot2 == std::string::npos) return nullptr;
  const std::string index = key.substr(dot1 + 1, dot2 - dot1 - 1);
  const bool index_ok = !index.empty() && index.size() <= 2 && std::all_of(index.begin(), index.end(), ::isdigit) &&
                        (index == "0" || index[0] != '0');
  const std::string row_key = key.substr(0, dot1) + key.substr(dot2);
  for (const auto& d : key_defs())
    if (is_item_row(d) && d.hash_key == row_key) {
      if (!index_ok || std::stoul(index) >= kMaxListItems)
        throw InputError(key, "item index must be 0 to 15 (got " + quote(index) + ")");
      return &d;
    }
  return nullptr;
}

// Every value checked, before any is applied; embed and the seed go to `st`.
std::map<std::string, Json> hash_values(const std::vector<std::pair<std::string, std::string>>& pairs, UrlState& st) {
  std::map<std::string, Json> values;
  for (const auto& kv : pairs) {
    const std::string& key = kv.first;
    const std::string& value = kv.second;
    if (key == "embed") {
      if (value != "0" && value != "1") throw InputError(key, "must be 0 or 1 (got " + quote(value) + ")");
      st.embed = value == "1";
      continue;
    }
    if (key == "s") {
      st.seed = check_id(value, key);
      continue;
    }
    const auto def = std::find_if(key_defs().begin(), key_defs().end(),
                                  [&](const FieldDef& d) { return key == d.hash_key; });
    if (def != key_defs().end()) {
      values[key] = parse_value(*def, value, key);
      continue;
    }
    if (const FieldDef* item = item_row(key)) {
      values[key] = parse_value(*item, value, key);
      continue;
    }
    std::vector<std::string> known = {"s", "embed"};
    for (const auto& d : key_defs()) known.emplace_back(d.hash_key);
    throw InputError(key, unknown_id_message("key", key, known));
  }
  return values;
}

// Fields that stand instead of each other (nodes or chips, tokens or samples) given together:
// an error naming both keys, not the one that happens to be applied last.
void check_conflicts(const std::map<std::string, Json>& values) {
  for (const auto& d : key_defs()) {
    if (d.excludes.empty() || values.count(std::string(d.hash_key)) == 0) continue;
    const FieldDef& other = scenario_field(d.excludes);
    if (values.count(std::string(other.hash_key)) != 0)
      throw InputError(std::string(d.hash_key), "conflicts with " + std::string(other.hash_key) + ": " +
                                                    std::string(d.path) + " and " + std::string(other.path) +
                                                    " stand instead of each other; give one");
  }
}

// A list's items come with its count (in=2&in.0.kind=...), each index below it.
void check_lists(const std::map<std::string, Json>& values) {
  for (const auto& [key, v] : values) {
    const FieldDef* item = item_row(key);
    if (item == nullptr) continue;
    const FieldDef& list = scenario_field(list_of(*item));
    const auto count = values.find(std::string(list.hash_key));
    if (count == values.end())
      throw InputError(key, "give " + std::string(list.hash_key) + "=<number of items> with the items");
    const std::string index = key.substr(key.find('.') + 1, key.find('.', key.find('.') + 1) - key.find('.') - 1);
    if (std::stoll(index) >= count->second.get<long long>())
      throw InputError(key, "item " + index + " of " + std::string(list.hash_key) + "=" + count->second.dump() +
                                " items");
  }
}

// The list of a count key, built from its items' keys; it replaces the base's list.
Json list_value(const FieldDef& list, const std::map<std::string, Json>& values) {
  Json arr = Json::array();
  for (long long i = 0; i < values.at(std::string(list.hash_key)).get<long long>(); ++i) arr.push_back(Json::object());
  for (const auto& d : key_defs()) {
    if (!is_item_row(d) || list_of(d) != list.path) continue;
    for (std::size_t i = 0; i < arr.size(); ++i)
      if (const auto it = values.find(item_key(d, i)); it != values.end()) arr[i][std::string(item_field(d))] = it->second;
  }
  return arr;
}

// The scenario of the link: the seed (or `base`) with the link's values set, in a fixed order.
void apply_values(UrlState& st, const std::map<std::string, Json>& values, const Json& base) {
  if (!st.seed.empty()) {
    st.scenario = seed_document(st.seed);
    if (st.scenario.is_null()) throw InputError("s", "unknown seed scenario " + quote(st.seed));
  } else {
    st.scenario = base;
  }
  if (!st.scenario.is_object()) st.scenario = Json::object();
  for (const auto& d : key_defs()) {
    const auto it = is_item_row(d) ? values.end() : values.find(std::string(d.hash_key));
    if (it == values.end()) continue;
    if (!d.excludes.empty()) erase_path(st.scenario, d.excludes);
    if (d.hash_key == "tt") erase_path(st.scenario, "training.epochs");
    if (d.type == FieldType::price_mix && st.scenario.contains("pricing") && st.scenario["pricing"].is_object())
      for (const char* k : {"tier", "fallback", "usd_per_hour", "discount"}) st.scenario["pricing"].erase(k);
    set_path(st.scenario, d.path, d.type == FieldType::list ? list_value(d, values) : it->second);
  }
}

}  // namespace

UrlState parse_url_hash(std::string_view hash, const Json& base) {
  if (!hash.empty() && hash.front() == '#') hash.remove_prefix(1);
  if (hash.size() > kMaxHashLength)
    throw InputError("hash", "longer than " + std::to_string(kMaxHashLength) + " characters");
  UrlState st;
  bool versioned = false;
  const auto pairs = hash_pairs(hash, versioned);
  // Every key is checked before any is applied, in a fixed order (not the link's).
  const std::map<std::string, Json> values = hash_values(pairs, st);
  check_conflicts(values);
  check_lists(values);
  if (!values.empty() || !st.seed.empty()) {
    if (!versioned) throw InputError("v", "the hash must start with v1 (e.g. #v1&m=llama3.1-8b)");
    st.has_scenario = true;
  }
  apply_values(st, values, base);
  return st;
}

std::string url_hash(const Json& scenario, const std::string& seed, bool embed) {
  std::string out = "#v1";
  // A list travels whole (its count and every item) or not at all: keys are compared with the
  // seed's by group, a key alone or a list's count with its items.
  auto group_of = [](const std::string& key) {
    const FieldDef* item = item_row(key);
    return item ? std::string(scenario_field(list_of(*item)).hash_key) : key;
  };
  auto groups = [&](const std::vector<std::pair<std::string, std::string>>& pairs) {
    std::map<std::string, std::string> g;
    for (const auto& [k, v] : pairs) g[group_of(k)] += k + "=" + v + "&";
    return g;
  };
  const auto mine = encode_fields(scenario);
  std::map<std::string, std::string> theirs;
  if (!seed.empty()) {
    out += "&s=" + percent_encode(seed);
    theirs = groups(encode_fields(seed_document(seed)));
  }
  const auto own = groups(mine);
  for (const auto& [k, v] : mine) {
    const auto it = theirs.find(group_of(k));
    if (it != theirs.end() && it->second == own.at(group_of(k))) continue;
    out += "&" + k + "=" + percent_encode(v);
  }
  // A list the seed has and the scenario does not: none.
  for (const auto& d : key_defs())
    if (d.type == FieldType::list && theirs.count(std::string(d.hash_key)) && !own.count(std::string(d.hash_key)))
      out += "&" + std::string(d.hash_key) + "=0";
  if (embed) out += "&embed=1";
  return out;
}

std::string link_key(std::string_view path) {
  // incidents[2].hours: the row incidents[].hours, item 2.
  const auto open = path.find('[');
  const auto close = path.find(']');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    const std::string index(path.substr(open + 1, close - open - 1));
    if (index.empty() || index.size() > 2 || !std::all_of(index.begin(), index.end(), ::isdigit)) return "";
    const std::string row = std::string(path.substr(0, open)) + "[]" + std::string(path.substr(close + 1));
    for (const auto& d : key_defs())
      if (is_item_row(d) && d.path == row)
        return item_key(d, std::stoul(index));
    return "";
  }
  for (const auto& d : key_defs())
    if (d.path == path) return std::string(d.hash_key);
  return "";
}

bool hash_reproduces(const Json& scenario, const std::string& hash, const Json& base) {
  try {
    return same_json(parse_url_hash(hash, base).scenario, scenario);
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace tc::io
