// Parameter counts from a model's shape (Shoeybi et al. 2019 for the transformer block; Vaswani
// et al. 2017; Dosovitskiy et al. 2021 for ViT; Devlin et al. 2019 for BERT).
#pragma once
#include "core/types.hpp"

namespace tc {

struct ParamCounts {
  double attention = 0;     // per layer: Q, K, V, O projections (+ biases)
  double ffn_dense = 0;     // per layer, dense FFN (0 for MoE layers)
  double expert = 0;        // one routed expert's FFN
  double shared_experts = 0;// per layer, always-active experts
  double router = 0;        // per layer
  double norms = 0;         // per layer
  double embeddings = 0;    // token (+ position, patch, type) embeddings, final norm
  double output = 0;        // untied output layer or classification head
  double total = 0;
  double active = 0;        // touched per token (top-k experts only)
  double per_layer_total = 0;
  double per_layer_active = 0;
  double dense_layer = 0;   // one of the model's dense_layers (attention, norms, dense FFN)
  double layers_active = 0; // every transformer layer's active parameters
  double mtp = 0;           // the multi-token prediction modules' parameters (not in total)
  double mtp_active = 0;    // of those, what a token passes through
  double mtp_projections = 0;  // of those, outside the modules' transformer layers
};

int vit_tokens(const ModelShape& m);             // patches + CLS token
int head_dim(const ModelShape& m);
// Width of the attention: heads x head_dim (= hidden unless head_dim is set apart).
double attention_width(const ModelShape& m);
// Width of K, and of V: kv_heads x head_dim (grouped-query attention, Ainslie et al. 2023).
double kv_width(const ModelShape& m);
// Width of V alone: kv_width, or kv_heads x v_head_dim with multi-head latent attention.
double kv_value_width(const ModelShape& m);
// Forward FLOPs of every layer's attention core (the prediction modules' too) for each key a query
// attends to: scores at the query/key width, context at the value width (2 FLOPs a multiply-add).
double attention_fwd_flops_per_key(const ModelShape& m);
// Width of the attention's values and of the output projection's input: heads x v_head_dim with
// multi-head latent attention, else attention_width.
double value_width(const ModelShape& m);
bool is_mla(const ModelShape& m);
// Keys a query attends to, on average over the sequence: a causal query sees the tokens up to
// itself (s / 2 on average, the FLOP counts of FlashAttention and Megatron-Bridge), an encoder's
// query all s.
double attended_keys(const ModelShape& m);
ParamCounts count_params(const ModelShape& m);
// Transformer layers a step runs: the model's, and each multi-token prediction module's one.
inline int transformer_layers(const ModelShape& m) { return m.layers + m.mtp_layers; }
// LoRA adapters on the four attention projections and the FFN matrices of every layer, the
// prediction modules' too (Hu et al. 2021 applies them to W_q, W_v; PEFT practice targets all
// linear layers). With fused_projections (FrameworkProfile), Q, K and V are one adapted module, as
// are a gated FFN's gate and up projections.
double lora_params(const ModelShape& m, int rank, bool fused_projections);
// The adapters a token passes through: those of its top-k and shared experts only.
double lora_active_params(const ModelShape& m, int rank, bool fused_projections);
// The adapters, as lora_params counts them, on `layers` transformer layers of which `routed` have
// experts (the others a dense FFN: a dense model's, or a mixture's of dense_ffn_hidden): those
// beside `experts` experts of each routed layer, and the rest (attention, shared experts, dense
// FFNs), which split over parallel ranks apart.
struct LoraSplit {
  double experts = 0, rest = 0;
};
LoraSplit lora_params_on(const ModelShape& m, int rank, bool fused_projections, double layers, double routed,
                         double experts);
// The largest meaningful LoRA rank: an adapter B A on a d_in x d_out weight has rank at most
// min(d_in, d_out) (Hu et al. 2021, "LoRA", section 4.1), so the rank is bounded by the narrowest
// adapted weight: hidden, the attention width, the K/V width and the FFN width.
int max_lora_rank(const ModelShape& m);

}  // namespace tc
