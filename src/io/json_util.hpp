// Typed access to parsed JSON for every input of traincalc (preset files, scenario files, URL
// state). Each getter validates type and range and throws InputError naming the JSON path, so a
// user sees "presets/x.json: models[2].hidden: must be <= 1000000 (got 1e+09)" rather than a
// crash or a silently absurd estimate.
//
// Paths: a base path ending in ": " (a file label such as "presets/x.json: ") or an empty base
// takes the next key without a dot; otherwise keys are joined with "." and indices with "[i]".
#pragma once

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/embedded.hpp"
#include "io/error.hpp"

namespace tc::io {

using Json = nlohmann::json;

constexpr std::size_t kMaxStringLength = 200;   // ids, names, regions, enum values
constexpr std::size_t kMaxTextLength = 2000;    // source citations and notes
constexpr std::size_t kMaxJsonDepth = 64;       // nesting of arrays and objects in any input
constexpr std::size_t kMaxInputBytes = 16u << 20;  // a scenario file, stdin, a CSV, a preset file
// Values (numbers, strings, arrays, objects...) in one document: 4 preset files of 10,000 models
// hold about 1.2 million together; 16 MiB of "{}," would be 5.6 million objects, about 1 GB once
// parsed (an empty object is a map node of ~100 bytes), so the count is checked before parsing.
constexpr std::size_t kMaxJsonValues = 1u << 20;

// All of `in`, reading at most kMaxInputBytes + 1 bytes: a stream that does not end (/dev/zero,
// a pipe) is refused once past the cap instead of filling memory. Throws InputError naming `label`.
std::string read_capped(std::istream& in, const std::string& label);

// Characters of a preset id (letters, digits, . _ - +), at most kMaxIdLength of them: the preset
// loader, the link decoder and the link encoder share the alphabet.
constexpr std::size_t kMaxIdLength = 64;
bool is_id_char(char c);

std::string path_key(const std::string& base, std::string_view key);
// Text from the input as shown in a message: control characters as JSON escapes (a NUL would end
// the message), cut after about `max` bytes on a whole UTF-8 character, with the original length.
std::string shown_text(std::string_view text, std::size_t max);
// A key from the input as shown in a path: shown_text of about the first 64 bytes.
std::string shown_key(std::string_view key);
std::string path_index(const std::string& base, std::size_t index);

// Parses text, naming `label` in the error. // and /* */ comments outside strings are skipped. Rejects duplicate keys in an object, since the JSON
// library would otherwise keep only the last one and hide the mistake, and nesting deeper than
// kMaxJsonDepth (checked before parsing: hostile input must not exhaust the stack).
Json parse_json(const std::string& text, const std::string& label);
// An embedded file of `files` (io/embedded.hpp) through parse_json, or an empty object when there is
// none. The one way the program parses embedded JSON: another input type (Json::parse(const char*))
// would link a second copy of nlohmann's parser into the page (5.5 KB gzipped).
Json parse_embedded(const std::string& path, const std::vector<EmbeddedFile>& files = embedded_presets());

// Rendering for tables and messages: -1, 0.5, 1e+09, inf (10 significant digits).
std::string format_number(double v);
// The shortest text that reads back as exactly `v` (1.0000000001, 5e-324): what a message quotes
// as the value it got, so that "must be an integer (got 1)" cannot happen.
std::string exact_number(double v);
// Where `s` stops being well-formed UTF-8 (RFC 3629 Section 3: no overlong forms, surrogates or
// code points past U+10FFFF), or npos. Text that does not come through the JSON reader (link
// values, CSV files) is checked with it, so that no string in a document fails to serialize.
std::size_t invalid_utf8_at(std::string_view s);
// The number a whole text spells in decimal notation, read by strtod over every byte ("1" NUL "6"
// is no number: a check of the C string's end would read it as 1), or nothing: no hexadecimal,
// "inf", "nan" or blanks. Text that is not JSON (CSV cells, link values) goes through here.
std::optional<double> whole_number(const std::string& text);
// The one check of every number read from any input (JSON, link, CSV): finite, not a denormal,
// within [min, max]; -0 reads as 0. Throws InputError naming `path`.
double check_number(double v, const std::string& path, double min, double max);
// `v` itself when it is 0 or at least `min_positive`; else InputError naming `path`.
double check_zero_or_at_least(double v, const std::string& path, double min_positive);
// A JSON value as quoted in a message: `string "nan"`, `null`, `array`, or the number itself.
std::string describe_value(const Json& v);

// Object structure. `path` is the path of `obj` itself.
void require_object(const Json& obj, const std::string& path);
bool has_key(const Json& obj, std::string_view key);
const Json& require_key(const Json& obj, std::string_view key, const std::string& path);
const Json& get_object(const Json& obj, std::string_view key, const std::string& path);
const Json& get_array(const Json& obj, std::string_view key, const std::string& path,
                      std::size_t max_items = 100000);
// Rejects keys outside `allowed`, suggesting the nearest allowed key: typos in an input file must
// not silently fall back to a default.
void check_keys(const Json& obj, const std::string& path,
                const std::vector<std::string_view>& allowed);

// Values. `path` is the path of the value. min and max are inclusive.
double to_number(const Json& v, const std::string& path, double min, double max);
double to_positive(const Json& v, const std::string& path, double max);  // 0 < v <= max
long long to_int64(const Json& v, const std::string& path, long long min, long long max);
bool to_bool(const Json& v, const std::string& path);
std::string to_string_value(const Json& v, const std::string& path,
                            std::size_t max_len = kMaxStringLength);

// Members. `path` is the path of the object holding `key`.
double get_number(const Json& obj, std::string_view key, const std::string& path, double min,
                  double max);
double get_number_or(const Json& obj, std::string_view key, const std::string& path, double min,
                     double max, double fallback);
// A JSON null reads as `null_value` (e.g. 0 TFLOPS for an unsupported precision).
double get_number_nullable(const Json& obj, std::string_view key, const std::string& path,
                           double min, double max, double null_value);
double get_positive(const Json& obj, std::string_view key, const std::string& path, double max);
// 0 (none, off) or a value in [min_positive, max]: a rate or count whose tiny positive values would
// only overflow what is divided by it (a 1e-300 GB/s link, 1e-300 runs per month).
double get_zero_or_number(const Json& obj, std::string_view key, const std::string& path,
                          double min_positive, double max);
double get_zero_or_number_or(const Json& obj, std::string_view key, const std::string& path,
                             double min_positive, double max, double fallback);
int get_int(const Json& obj, std::string_view key, const std::string& path, int min, int max);
int get_int_or(const Json& obj, std::string_view key, const std::string& path, int min, int max,
               int fallback);
long long get_int64(const Json& obj, std::string_view key, const std::string& path, long long min,
                    long long max);
long long get_int64_or(const Json& obj, std::string_view key, const std::string& path,
                       long long min, long long max, long long fallback);
bool get_bool(const Json& obj, std::string_view key, const std::string& path);
bool get_bool_or(const Json& obj, std::string_view key, const std::string& path, bool fallback);
std::string get_string(const Json& obj, std::string_view key, const std::string& path,
                       std::size_t max_len = kMaxStringLength);
std::string get_string_or(const Json& obj, std::string_view key, const std::string& path,
                          const std::string& fallback, std::size_t max_len = kMaxStringLength);
// One of `allowed`, or an error listing them (with the nearest as a suggestion).
std::string get_enum(const Json& obj, std::string_view key, const std::string& path,
                     const std::vector<std::string_view>& allowed);
std::string get_enum_or(const Json& obj, std::string_view key, const std::string& path,
                        const std::vector<std::string_view>& allowed, const std::string& fallback);

// An AWS region or Local Zone id: us-east-1, us-east-1-dfw-2a.
std::string region_value(const Json& v, const std::string& path);

// Calendar date YYYY-MM-DD (checks month length and leap years).
bool is_valid_date(std::string_view s);
std::string get_date(const Json& obj, std::string_view key, const std::string& path);

// Suggestions for unknown ids and keys.
std::size_t edit_distance(std::string_view a, std::string_view b);
// The n known ids closest to `id` (case-insensitive): ids containing it first, then by edit
// distance to the whole id or to its prefix; ties in `known` order.
std::vector<std::string> nearest_ids(std::string_view id, const std::vector<std::string>& known,
                                     std::size_t n = 3);
// "unknown model 'llama3-8b'; nearest: llama3.1-8b, llama2-7b, llama2-13b"
std::string unknown_id_message(std::string_view kind, std::string_view id,
                               const std::vector<std::string>& known);

}  // namespace tc::io
