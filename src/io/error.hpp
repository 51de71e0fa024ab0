// Input errors name the field and the reason, e.g. "parallel.tp: 12 does not divide heads (64)".
#pragma once
#include "core/error.hpp"

namespace tc::io {
using InputError = tc::FieldError;
}  // namespace tc::io
