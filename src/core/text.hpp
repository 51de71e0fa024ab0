// Text helpers shared by every layer.
#pragma once

#include <string>

namespace tc {

// Appends `item` to a `sep`-separated list, the separator only between items.
void append_item(std::string& list, const std::string& item, const char* sep = ", ");

}  // namespace tc
