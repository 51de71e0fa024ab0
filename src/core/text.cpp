#include "core/text.hpp"

namespace tc {

void append_item(std::string& list, const std::string& item, const char* sep) {
  if (!list.empty()) list += sep;
  list += item;
}

std::string layers_text(long long n) {
  return n == 0 ? "none" : std::to_string(n) + (n == 1 ? " layer" : " layers");
}

}  // namespace tc
