// Text helpers shared by every layer.
#pragma once

#include <string>

namespace tc {

// Appends `item` to a `sep`-separated list, the separator only between items.
void append_item(std::string& list, const std::string& item, const char* sep = ", ");

// "1 row", "4 rows": a count with its noun, plural but for one.
std::string count_text(long long n, const std::string& noun);

// "none", "1 layer", "4 layers".
std::string layers_text(long long n);

}  // namespace tc
