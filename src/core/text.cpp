#include "core/text.hpp"

namespace tc {

void append_item(std::string& list, const std::string& item, const char* sep) {
  if (!list.empty()) list += sep;
  list += item;
}

}  // namespace tc
