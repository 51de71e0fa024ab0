// Input errors name the field and the reason, e.g. "parallel.tp: 12 does not divide heads (64)".
#pragma once
#include <stdexcept>
#include <string>

namespace tc::io {
class InputError : public std::runtime_error {
 public:
  InputError(std::string field, std::string reason)
      : std::runtime_error(field.empty() ? reason : field + ": " + reason),
        field_(std::move(field)), reason_(std::move(reason)) {}
  const std::string& field() const { return field_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string field_;
  std::string reason_;
};
}  // namespace tc::io
