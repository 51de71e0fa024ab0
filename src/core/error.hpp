// An input that cannot be used, naming its field and the reason, e.g.
// "parallel.tp: 12 does not divide heads (64)". The model throws it for inputs that only it can
// judge (cost inputs); src/io throws it for everything a file or URL gets wrong.
#pragma once
#include <stdexcept>
#include <string>

namespace tc {
class FieldError : public std::runtime_error {
 public:
  FieldError(std::string field, std::string reason)
      : std::runtime_error(field.empty() ? reason : field + ": " + reason),
        field_(std::move(field)), reason_(std::move(reason)) {}
  const std::string& field() const { return field_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string field_;
  std::string reason_;
};
}  // namespace tc
