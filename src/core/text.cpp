#include "core/text.hpp"

namespace tc {

void append_item(std::string& list, const std::string& item, const char* sep) {
  if (!list.empty()) list += sep;
  list += item;
}

std::string count_text(long long n, const std::string& noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

std::string layers_text(long long n) {
  return n == 0 ? "none" : count_text(n, "layer");
}

}  // namespace tc
