// Limits on a model's shape that no real model reaches: past them an input is a typo or an attack
// on the calculator (loops over layers, allocations per chip), not a design. Preset files, inline
// models and Hugging Face configs are held to the same ones.
#pragma once

namespace tc::io::limits {

constexpr int kMaxLayers = 100000;
constexpr int kMaxHidden = 1000000;
constexpr int kMaxFfnHidden = 10000000;
constexpr int kMaxHeads = 100000;
constexpr int kMaxHeadDim = 65536;
constexpr int kMaxSeqLen = 10000000;
constexpr int kMaxVocab = 10000000;
constexpr int kMaxExperts = 100000;
constexpr int kMaxImageSize = 100000;
// An activation clamp (GPT-OSS's swiglu_limit is 7): a sanity bound, far above any trained model's.
constexpr double kMaxSwigluLimit = 1e6;

}  // namespace tc::io::limits
