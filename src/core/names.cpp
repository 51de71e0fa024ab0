#include "core/types.hpp"

namespace tc {

const char* to_string(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp8: return "fp8";
    case Precision::fp4: return "fp4";
  }
  return "?";
}

const char* to_string(Fp8Scaling f) {
  switch (f) {
    case Fp8Scaling::per_tensor: return "per_tensor";
    case Fp8Scaling::rowwise: return "rowwise";
  }
  return "?";
}

const char* to_string(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
}

const char* to_string(TrainingMode m) {
  switch (m) {
    case TrainingMode::pretrain: return "pretrain";
    case TrainingMode::full_finetune: return "full_finetune";
    case TrainingMode::lora: return "lora";
  }
  return "?";
}

const char* to_string(ModelKind k) {
  switch (k) {
    case ModelKind::decoder: return "decoder";
    case ModelKind::encoder: return "encoder";
    case ModelKind::vit: return "vit";
  }
  return "?";
}

}  // namespace tc
