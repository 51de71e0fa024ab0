#include "io/json_util.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>

#include "io/embedded.hpp"

namespace tc::io {

namespace {
// The largest cut at or before `at` that keeps whole UTF-8 characters (never splits a sequence).
std::size_t utf8_boundary(std::string_view s, std::size_t at) {
  while (at > 0 && at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) --at;
  return at;
}
}  // namespace

bool is_id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '-' || c == '+';
}

std::string path_key(const std::string& base, std::string_view key) {
  if (base.empty() || base.back() == ' ') return base + std::string(key);
  return base + "." + std::string(key);
}

std::string path_index(const std::string& base, std::size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

namespace {

// Where the parser is: the container being filled and, in an object, the key being read (it
// lives in the object itself), so that a duplicate key can be reported with its path.
struct Frame {
  Json* node = nullptr;              // an object or an array
  const std::string* key = nullptr;  // object: the current key
  Json* pending = nullptr;           // object: the current key's value
};

// The path of the first `n` frames: each object's current key, each array's current element.
std::string frames_path(const std::vector<Frame>& frames, std::size_t n, const std::string& label) {
  std::string path = label.empty() ? std::string() : label + ": ";
  for (std::size_t i = 0; i < n; ++i) {
    const Frame& f = frames[i];
    path = f.node->is_object() ? path_key(path, f.key ? shown_key(*f.key) : std::string())
                               : path_index(path, f.node->size() - 1);
  }
  return path;
}

std::string strip_library_prefix(const std::string& what) {
  // "[json.exception.parse_error.101] parse error at line 3, ..." -> "parse error at line 3, ..."
  const auto close = what.find("] ");
  std::string msg = what.rfind("[json.exception.", 0) == 0 && close != std::string::npos
                        ? what.substr(close + 2)
                        : what;
  // The library quotes the offending token ("last read: '...'", "number overflow parsing '...'"),
  // which can be megabytes long or hold a line break: cut it, and keep the message on one line.
  const auto open = msg.find('\'');
  auto end = msg.rfind("'; expected");
  if (end == std::string::npos || end <= open) end = msg.rfind('\'');
  constexpr std::size_t kShown = 40;
  if (open != std::string::npos && end != std::string::npos && end > open + 1 + kShown) {
    const std::size_t cut = utf8_boundary(msg, open + 1 + kShown);
    msg = msg.substr(0, cut) + "...(" + std::to_string(end - open - 1) + " bytes)" + msg.substr(end);
  }
  for (char& c : msg)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return msg;
}

// Deepest nesting of arrays and objects in `text` (brackets inside strings do not count), up to
// `limit` + 1: a linear scan, so that hostile input never reaches a parser or a destructor that
// might recurse once per level.
std::size_t nesting_depth(const std::string& text, std::size_t limit) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // Comments (which parse_json accepts) hold no brackets that count.
    if (!in_string && c == '/' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '*')) {
      const bool line = text[i + 1] == '/';
      const std::size_t end = text.find(line ? "\n" : "*/", i + 2);
      if (end == std::string::npos) break;
      i = end + (line ? 0 : 1);
      continue;
    }
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// SAX handler that builds the document in the one pass over the text, as the library's own DOM
// parser does, and reports what the library does not: duplicate keys (with their path), more
// values than kMaxJsonValues, and malformed JSON, as InputError.
class CheckedBuilder : public nlohmann::json_sax<Json> {
 public:
  CheckedBuilder(Json& root, const std::string& label) : root_(root), label_(label) {}
  bool null() override { return add(nullptr); }
  bool boolean(bool v) override { return add(v); }
  bool number_integer(number_integer_t v) override { return add(v); }
  bool number_unsigned(number_unsigned_t v) override { return add(v); }
  bool number_float(number_float_t v, const string_t&) override { return add(v); }
  bool string(string_t& v) override { return add(std::move(v)); }
  bool binary(binary_t& v) override { return add(Json::binary(std::move(v))); }
  bool start_object(std::size_t) override {
    frames_.push_back(Frame{place(Json::object())});
    return true;
  }
  bool key(string_t& key) override {
    Frame& top = frames_.back();
    const auto [at, added] = top.node->get_ref<Json::object_t&>().emplace(key, nullptr);
    if (!added) throw InputError(path_key(frames_path(frames_, frames_.size() - 1, label_), shown_key(key)), "duplicate key");
    top.key = &at->first;
    top.pending = &at->second;
    return true;
  }
  bool end_object() override { return end(); }
  bool start_array(std::size_t) override {
    frames_.push_back(Frame{place(Json::array())});
    return true;
  }
  bool end_array() override { return end(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    throw InputError(label_, "malformed JSON: " + strip_library_prefix(e.what()));
  }

 private:
  // Puts a value where the parser is: the root, the next element of an array, or the current
  // key's value. A container stays put while it is filled (its parent grows only after it ends).
  Json* place(Json v) {
    if (frames_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& top = frames_.back();
    if (top.node->is_array()) {
      auto& elements = top.node->get_ref<Json::array_t&>();
      elements.push_back(std::move(v));
      return &elements.back();
    }
    *top.pending = std::move(v);
    return top.pending;
  }
  bool add(Json v) {
    place(std::move(v));
    return value();
  }
  bool value() {
    if (++values_ > kMaxJsonValues)
      throw InputError(label_, "holds more than " + std::to_string(kMaxJsonValues) +
                                   " values (numbers, strings, arrays, objects); not parsed");
    return true;
  }
  bool end() {
    frames_.pop_back();
    return value();
  }
  Json& root_;
  const std::string& label_;
  std::vector<Frame> frames_;
  std::size_t values_ = 0;
};

}  // namespace

std::string shown_text(std::string_view text, std::size_t max) {
  const std::size_t cut = text.size() <= max ? text.size() : utf8_boundary(text, max - 3);
  std::string out;
  for (const char c : text.substr(0, cut)) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\u%04X", u);
      out += esc;
    } else {
      out += c;
    }
  }
  if (cut < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string shown_key(std::string_view key) { return shown_text(key, 64); }

std::string read_capped(std::istream& in, const std::string& label) {
  std::string text;
  char chunk[1 << 16];
  while (in) {
    in.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes)
      throw InputError(label, "larger than 16 MiB (" + std::to_string(kMaxInputBytes) + " bytes); not read further");
  }
  if (in.bad()) throw InputError(label, "cannot be read");
  return text;
}

Json parse_json(const std::string& text, const std::string& label) {
  if (nesting_depth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    throw InputError(label, "malformed JSON: arrays and objects nested deeper than " +
                                std::to_string(kMaxJsonDepth) + " levels");
  }
  // One linear pass: a SAX handler builds the document and checks it (nlohmann's callback parser
  // scans the parent container at every object's end, which makes an array of n objects cost
  // n^2: minutes for a few megabytes; a checking pass before the library's parser read every
  // input twice, half of the command line's start-up).
  // Comments (// and /* */) are accepted: scenario files are written and annotated by hand, as
  // the README's example is. The library skips them outside strings only.
  Json root;
  CheckedBuilder builder(root, label);
  Json::sax_parse(text, &builder, nlohmann::detail::input_format_t::json, true, true);
  return root;
}

Json parse_embedded(const std::string& path, const std::vector<EmbeddedFile>& files) {
  const char* text = embedded_contents(path, files);
  return text ? parse_json(text, path) : Json::object();
}

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string describe_value(const Json& v) {
  if (v.is_string()) {
    return "string \"" + shown_text(v.get<std::string>(), 40) + "\"";
  }
  if (v.is_number()) return format_number(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_null()) return "null";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return v.type_name();
}

void require_object(const Json& obj, const std::string& path) {
  if (!obj.is_object()) throw InputError(path, "must be an object (got " + describe_value(obj) + ")");
}

bool has_key(const Json& obj, std::string_view key) {
  return obj.is_object() && obj.find(std::string(key)) != obj.end();
}

const Json& require_key(const Json& obj, std::string_view key, const std::string& path) {
  require_object(obj, path);
  const auto it = obj.find(std::string(key));
  if (it == obj.end()) throw InputError(path_key(path, key), "missing (required)");
  return *it;
}

const Json& get_object(const Json& obj, std::string_view key, const std::string& path) {
  const Json& v = require_key(obj, key, path);
  require_object(v, path_key(path, key));
  return v;
}

const Json& get_array(const Json& obj, std::string_view key, const std::string& path,
                      std::size_t max_items) {
  const Json& v = require_key(obj, key, path);
  const std::string p = path_key(path, key);
  if (!v.is_array()) throw InputError(p, "must be an array (got " + describe_value(v) + ")");
  if (v.size() > max_items) {
    throw InputError(p, "has " + std::to_string(v.size()) + " items; at most " +
                            std::to_string(max_items) + " are allowed");
  }
  return v;
}

namespace {
std::string join(const std::vector<std::string_view>& items) {
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

// Suggest a close match only when it is plausibly a typo, not an unrelated word.
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& options) {
  // No typo of a short key is this long; skipping also bounds the edit-distance work.
  if (word.size() > 64) return {};
  std::size_t best = std::string::npos;
  std::string_view best_option;
  for (const auto& o : options) {
    const std::size_t d = edit_distance(word, o);
    if (d < best) {
      best = d;
      best_option = o;
    }
  }
  if (best_option.empty() || best > std::max<std::size_t>(2, word.size() / 3)) return {};
  return " (did you mean '" + std::string(best_option) + "'?)";
}
}  // namespace

void check_keys(const Json& obj, const std::string& path,
                const std::vector<std::string_view>& allowed) {
  require_object(obj, path);
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (std::find(allowed.begin(), allowed.end(), it.key()) != allowed.end()) continue;
    throw InputError(path_key(path, shown_key(it.key())), "unknown key" + did_you_mean(it.key(), allowed) +
                                                   "; allowed keys: " + join(allowed));
  }
}

std::size_t invalid_utf8_at(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    // The sequence length and the range of its second byte (RFC 3629 Section 4, UTF8-2..UTF8-4).
    std::size_t n = 1;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) n = 1;
    else if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return i;
    if (i + n > s.size()) return i;
    for (std::size_t k = 1; k < n; ++k) {
      const unsigned char want_lo = k == 1 ? lo : 0x80, want_hi = k == 1 ? hi : 0xBF;
      if (b(i + k) < want_lo || b(i + k) > want_hi) return i;
    }
    i += n;
  }
  return std::string_view::npos;
}

namespace {
// Decimal notation: [+-] digits [. digits] [(e|E) [+-] digits], at least one mantissa digit (a
// bare leading or trailing point is allowed, as spreadsheets write them). strtod alone also reads
// hexadecimal ("0x10" as 16), "inf", "nan" and leading blanks, which no input here means.
bool decimal_notation(const std::string& t) {
  std::size_t i = 0, digits = 0;
  const auto run = [&] {
    std::size_t n = 0;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i, ++n;
    return n;
  };
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
  digits += run();
  if (i < t.size() && t[i] == '.') ++i, digits += run();
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (run() == 0) return false;
  }
  return i == t.size();
}
}  // namespace

std::optional<double> whole_number(const std::string& text) {
  if (!decimal_notation(text)) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

std::string exact_number(double v) {
  // As format_number where that reads back exactly (1000, 0.5, 1e+09), else the shortest text
  // that does (1.0000000001, 5e-324).
  const std::string plain = format_number(v);
  if (!std::isfinite(v) || std::strtod(plain.c_str(), nullptr) == v) return plain;
  char buf[40];
  for (int prec = 1; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof buf, "%.*g", prec, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

double check_number(double d, const std::string& path, double min, double max) {
  const std::string got = " (got " + exact_number(d) + ")";
  if (!std::isfinite(d)) throw InputError(path, "must be a finite number" + got);
  // A denormal (below 2.2e-308) is never a measured or chosen figure: it only appears from a typo
  // or an attack, and its reciprocal overflows to inf further on.
  if (std::fpclassify(d) == FP_SUBNORMAL)
    throw InputError(path, "is a denormal number (nonzero, below 2.2e-308), not a usable value" + got);
  if (d < min) throw InputError(path, "must be >= " + format_number(min) + got);
  if (d > max) throw InputError(path, "must be <= " + format_number(max) + got);
  return d + 0.0;  // -0.0 reads as 0: a sign on zero would reach the results ("-0.0 s")
}

double to_number(const Json& v, const std::string& path, double min, double max) {
  if (!v.is_number()) throw InputError(path, "must be a number (got " + describe_value(v) + ")");
  return check_number(v.get<double>(), path, min, max);
}

double to_positive(const Json& v, const std::string& path, double max) {
  const double d = to_number(v, path, -HUGE_VAL, max);
  if (!(d > 0)) throw InputError(path, "must be > 0 (got " + exact_number(d) + ")");
  return d;
}

long long to_int64(const Json& v, const std::string& path, long long min, long long max) {
  // Range first, in double, so that a huge value is reported as out of range, not as overflow.
  const double d = to_number(v, path, static_cast<double>(min), static_cast<double>(max));
  if (v.is_number_float() && d != std::floor(d)) {
    throw InputError(path, "must be an integer (got " + exact_number(d) + ")");
  }
  return static_cast<long long>(d);
}

bool to_bool(const Json& v, const std::string& path) {
  if (!v.is_boolean()) {
    throw InputError(path, "must be true or false (got " + describe_value(v) + ")");
  }
  return v.get<bool>();
}

std::string to_string_value(const Json& v, const std::string& path, std::size_t max_len) {
  if (!v.is_string()) throw InputError(path, "must be a string (got " + describe_value(v) + ")");
  const std::string& s = v.get_ref<const std::string&>();
  if (s.empty()) throw InputError(path, "must not be empty");
  if (s.size() > max_len) {
    throw InputError(path, "must be at most " + std::to_string(max_len) + " characters (got " +
                               std::to_string(s.size()) + ")");
  }
  // Text ends up in terminals, HTML and URLs: control characters there are never intended.
  for (const unsigned char c : s) {
    if (c < 0x20 || c == 0x7f) throw InputError(path, "must not contain control characters");
  }
  return s;
}

double get_number(const Json& obj, std::string_view key, const std::string& path, double min,
                  double max) {
  return to_number(require_key(obj, key, path), path_key(path, key), min, max);
}

double get_number_or(const Json& obj, std::string_view key, const std::string& path, double min,
                     double max, double fallback) {
  return has_key(obj, key) ? get_number(obj, key, path, min, max) : fallback;
}

double get_number_nullable(const Json& obj, std::string_view key, const std::string& path,
                           double min, double max, double null_value) {
  const Json& v = require_key(obj, key, path);
  return v.is_null() ? null_value : to_number(v, path_key(path, key), min, max);
}

double get_positive(const Json& obj, std::string_view key, const std::string& path, double max) {
  return to_positive(require_key(obj, key, path), path_key(path, key), max);
}

double check_zero_or_at_least(double v, const std::string& path, double min_positive) {
  if (v > 0 && v < min_positive)
    throw InputError(path, "must be 0 or >= " + format_number(min_positive) + " (got " + exact_number(v) + ")");
  return v;
}

double get_zero_or_number(const Json& obj, std::string_view key, const std::string& path,
                          double min_positive, double max) {
  return check_zero_or_at_least(get_number(obj, key, path, 0, max), path_key(path, key), min_positive);
}

double get_zero_or_number_or(const Json& obj, std::string_view key, const std::string& path,
                             double min_positive, double max, double fallback) {
  return has_key(obj, key) ? get_zero_or_number(obj, key, path, min_positive, max) : fallback;
}

int get_int(const Json& obj, std::string_view key, const std::string& path, int min, int max) {
  return static_cast<int>(to_int64(require_key(obj, key, path), path_key(path, key), min, max));
}

int get_int_or(const Json& obj, std::string_view key, const std::string& path, int min, int max,
               int fallback) {
  return has_key(obj, key) ? get_int(obj, key, path, min, max) : fallback;
}

long long get_int64(const Json& obj, std::string_view key, const std::string& path, long long min,
                    long long max) {
  return to_int64(require_key(obj, key, path), path_key(path, key), min, max);
}

long long get_int64_or(const Json& obj, std::string_view key, const std::string& path,
                       long long min, long long max, long long fallback) {
  return has_key(obj, key) ? get_int64(obj, key, path, min, max) : fallback;
}

bool get_bool(const Json& obj, std::string_view key, const std::string& path) {
  return to_bool(require_key(obj, key, path), path_key(path, key));
}

bool get_bool_or(const Json& obj, std::string_view key, const std::string& path, bool fallback) {
  return has_key(obj, key) ? get_bool(obj, key, path) : fallback;
}

std::string get_string(const Json& obj, std::string_view key, const std::string& path,
                       std::size_t max_len) {
  return to_string_value(require_key(obj, key, path), path_key(path, key), max_len);
}

std::string get_string_or(const Json& obj, std::string_view key, const std::string& path,
                          const std::string& fallback, std::size_t max_len) {
  return has_key(obj, key) ? get_string(obj, key, path, max_len) : fallback;
}

std::string get_enum(const Json& obj, std::string_view key, const std::string& path,
                     const std::vector<std::string_view>& allowed) {
  const std::string s = get_string(obj, key, path);
  if (std::find(allowed.begin(), allowed.end(), s) != allowed.end()) return s;
  throw InputError(path_key(path, key), "'" + s + "' is not allowed" + did_you_mean(s, allowed) +
                                            "; one of: " + join(allowed));
}

std::string get_enum_or(const Json& obj, std::string_view key, const std::string& path,
                        const std::vector<std::string_view>& allowed, const std::string& fallback) {
  return has_key(obj, key) ? get_enum(obj, key, path, allowed) : fallback;
}

bool is_valid_date(std::string_view s) {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return false;
  for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  }
  auto num = [&](std::size_t pos, std::size_t len) {
    return std::stoi(std::string(s.substr(pos, len)));
  };
  const int y = num(0, 4), m = num(5, 2), d = num(8, 2);
  if (y < 1900 || m < 1 || m > 12 || d < 1) return false;
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= days[m - 1] + (m == 2 && leap ? 1 : 0);
}

std::string get_date(const Json& obj, std::string_view key, const std::string& path) {
  const std::string s = get_string(obj, key, path);
  if (!is_valid_date(s)) {
    throw InputError(path_key(path, key), "must be a date YYYY-MM-DD (got \"" + s + "\")");
  }
  return s;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  std::iota(prev.begin(), prev.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> nearest_ids(std::string_view id, const std::vector<std::string>& known,
                                     std::size_t n) {
  std::vector<std::size_t> order(known.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // Users type the start of an id ("h100" for "h100-sxm") or a part of it: a match there ranks
  // first, ahead of ids that are merely short and similar ("h200").
  auto lower = [](std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
  };
  const std::string needle = lower(id);
  std::vector<std::size_t> dist(known.size());
  for (std::size_t i = 0; i < known.size(); ++i) {
    const std::string k = lower(known[i]);
    if (!needle.empty() && k.find(needle) != std::string::npos) {
      dist[i] = 0;
      continue;
    }
    dist[i] = std::min(edit_distance(needle, k),
                       edit_distance(needle, std::string_view(k).substr(0, needle.size())) + 1);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return dist[x] < dist[y]; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < order.size() && out.size() < n; ++i) out.push_back(known[order[i]]);
  return out;
}

std::string unknown_id_message(std::string_view kind, std::string_view id,
                               const std::vector<std::string>& known) {
  std::string msg = "unknown " + std::string(kind) + " '" + std::string(id) + "'";
  const auto near = nearest_ids(id, known);
  if (near.empty()) return msg + "; none are defined";
  msg += "; nearest: ";
  for (std::size_t i = 0; i < near.size(); ++i) msg += (i ? ", " : "") + near[i];
  return msg;
}

std::string region_value(const Json& v, const std::string& path) {
  const std::string r = to_string_value(v, path, 40);
  const bool ok = !r.empty() && std::all_of(r.begin(), r.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
  if (!ok) throw InputError(path, "'" + shown_text(r, 40) + "' is not a region id (like us-east-1)");
  return r;
}

}  // namespace tc::io
