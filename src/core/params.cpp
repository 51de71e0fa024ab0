#include "core/params.hpp"

#include <algorithm>

namespace tc {

int vit_tokens(const ModelShape& m) {
  if (m.patch_size <= 0) return 0;
  const int per_side = m.image_size / m.patch_size;
  return per_side * per_side + 1;
}

int head_dim(const ModelShape& m) {
  if (m.head_dim > 0) return m.head_dim;
  return m.heads > 0 ? m.hidden / m.heads : 0;
}

double attention_width(const ModelShape& m) { return static_cast<double>(m.heads) * head_dim(m); }
double kv_width(const ModelShape& m) { return static_cast<double>(m.kv_heads) * head_dim(m); }

bool is_mla(const ModelShape& m) { return m.kv_lora_rank > 0; }

double value_width(const ModelShape& m) {
  return is_mla(m) ? static_cast<double>(m.heads) * m.v_head_dim : attention_width(m);
}
double kv_value_width(const ModelShape& m) {
  return is_mla(m) ? static_cast<double>(m.kv_heads) * m.v_head_dim : kv_width(m);
}
double attention_fwd_flops_per_key(const ModelShape& m) {
  return 2.0 * transformer_layers(m) * (attention_width(m) + value_width(m));
}

namespace {
double ffn_matrices(const ModelShape& m) { return m.gated_ffn ? 3.0 : 2.0; }

// One FFN (dense or one expert) of width f: gated = 3 matrices (SwiGLU, Shazeer 2020), plain = 2.
double ffn_params(const ModelShape& m, double f) {
  const double h = m.hidden;
  double p = ffn_matrices(m) * h * f;
  if (m.biases) p += (m.gated_ffn ? 2.0 * f : f) + h;
  return p;
}

// DeepSeek-V3 (arXiv 2412.19437) Section 2.1.1, eqs. 1-10: W^DQ (h x q_lora) with an RMSNorm on
// the latent and W^UQ, W^QR (q_lora x heads (nope + rope)); W^DKV and W^KR (h x (kv_lora + rope))
// with an RMSNorm on the latent, W^UK and W^UV (kv_lora x heads (nope + v)); W^O (heads v x h).
double mla_attention_params(const ModelShape& m) {
  const double h = m.hidden, n = m.heads, qk = head_dim(m), v = m.v_head_dim;
  const double q_lora = m.q_lora_rank, kv_lora = m.kv_lora_rank, rope = m.qk_rope_head_dim;
  const double q = q_lora > 0 ? h * q_lora + q_lora + q_lora * n * qk : h * n * qk;
  const double kv = h * (kv_lora + rope) + kv_lora + kv_lora * n * (qk - rope + v);
  return q + kv + n * v * h;
}
}  // namespace

double attended_keys(const ModelShape& m) {
  const double s = m.kind == ModelKind::vit ? vit_tokens(m) : m.seq_len;
  return m.kind == ModelKind::decoder ? s / 2 : s;
}

ParamCounts count_params(const ModelShape& m) {
  ParamCounts c;
  const double h = m.hidden;
  const double kv = kv_width(m);
  const double q = attention_width(m);
  // GQA (Ainslie et al. 2023): K and V project to kv_heads x head_dim; Q and O span the heads.
  c.attention = is_mla(m) ? mla_attention_params(m)
                          : 2.0 * h * q + 2.0 * h * kv + (m.biases ? q + 2.0 * kv + h : 0.0);
  // LayerNorm has a scale and a bias; RMSNorm only a scale. Two per block (pre-attention, pre-FFN).
  c.norms = (m.biases ? 4.0 : 2.0) * h;
  if (m.moe_experts > 0) {
    c.expert = ffn_params(m, m.ffn_hidden);
    c.shared_experts = m.moe_shared_experts * c.expert;
    c.router = h * m.moe_experts;
  } else {
    c.ffn_dense = ffn_params(m, m.ffn_hidden);
  }
  c.per_layer_total = c.attention + c.norms + c.ffn_dense + c.router + c.shared_experts +
                      m.moe_experts * c.expert;
  c.per_layer_active = c.attention + c.norms + c.ffn_dense + c.router + c.shared_experts +
                       m.moe_top_k * c.expert;
  if (m.dense_layers > 0) c.dense_layer = c.attention + c.norms + ffn_params(m, m.dense_ffn_hidden);
  const int moe_layers = m.layers - m.dense_layers;

  const double final_norm = (m.biases ? 2.0 : 1.0) * h;
  switch (m.kind) {
    case ModelKind::vit: {
      // Patch embedding is a conv with patch^2 x channels inputs per output; plus CLS and positions.
      const double patch_in = static_cast<double>(m.patch_size) * m.patch_size * m.channels;
      c.embeddings = patch_in * h + h + h + static_cast<double>(vit_tokens(m)) * h + final_norm;
      c.output = m.num_classes > 0 ? (h + 1.0) * m.num_classes : 0.0;
      break;
    }
    case ModelKind::encoder: {
      // BERT: token, position and segment embeddings with a LayerNorm; pooler; MLM head transform
      // (dense + LayerNorm) with an output bias over the vocabulary (decoder weights tied).
      c.embeddings = static_cast<double>(m.vocab) * h + m.learned_positions * h + 2.0 * h + 2.0 * h;
      c.output = (h * h + h) + (h * h + h + 2.0 * h) + m.vocab;
      break;
    }
    case ModelKind::decoder: {
      c.embeddings = static_cast<double>(m.vocab) * h + m.learned_positions * h + final_norm;
      c.output = m.tied_embeddings ? 0.0 : static_cast<double>(m.vocab) * h;
      break;
    }
  }
  c.layers_active = moe_layers * c.per_layer_active + m.dense_layers * c.dense_layer;
  // A prediction module: a layer of the model's (routed) kind, its 2h x h projection and three
  // norms (the hidden state's and the embedding's before it, its head's after; DeepSeek-V3
  // Section 2.2); it shares the embedding and the output layer.
  c.mtp_projections = m.mtp_layers * (2.0 * h * h + 3.0 * h);
  c.mtp = m.mtp_layers * c.per_layer_total + c.mtp_projections;
  c.mtp_active = m.mtp_layers * c.per_layer_active + c.mtp_projections;
  c.total = moe_layers * c.per_layer_total + m.dense_layers * c.dense_layer + c.embeddings + c.output;
  c.active = c.layers_active + c.embeddings + c.output;
  return c;
}

int max_lora_rank(const ModelShape& m) {
  const double kv = kv_width(m);
  const double narrowest = std::min({static_cast<double>(m.hidden), attention_width(m), kv,
                                     static_cast<double>(m.ffn_hidden)});
  return static_cast<int>(std::max(1.0, std::min(narrowest, 1e9)));
}

namespace {
// Each adapted W (d_in x d_out) adds A (d_in x r) and B (r x d_out); a fused module is one W.
double lora_attention_params(const ModelShape& m, double r, bool fused_projections) {
  const double h = m.hidden, q = attention_width(m), kv = kv_width(m);
  if (fused_projections) return r * ((h + q + 2 * kv) + (q + h));
  return r * ((h + q) + (h + kv) + (h + kv) + (q + h));
}

double lora_ffn_params(const ModelShape& m, double r, double f, bool fused_projections) {
  const double h = m.hidden;
  if (fused_projections) return r * ((h + (m.gated_ffn ? 2.0 : 1.0) * f) + (f + h));
  return ffn_matrices(m) * r * (h + f);
}

// The model's layers with experts: all but a mixture's dense ones, and each prediction module's.
double routed_layers(const ModelShape& m) {
  return m.moe_experts > 0 ? m.layers - m.dense_layers + m.mtp_layers : 0.0;
}
}  // namespace

LoraSplit lora_params_on(const ModelShape& m, int rank, bool fused_projections, double layers, double routed,
                         double experts) {
  if (rank <= 0) return {};
  const double expert = lora_ffn_params(m, rank, m.ffn_hidden, fused_projections);
  const double dense_ffn = lora_ffn_params(m, rank, m.moe_experts > 0 ? m.dense_ffn_hidden : m.ffn_hidden,
                                           fused_projections);
  LoraSplit s;
  s.experts = routed * experts * expert;
  s.rest = layers * lora_attention_params(m, rank, fused_projections) + routed * m.moe_shared_experts * expert +
           (layers - routed) * dense_ffn;
  return s;
}

namespace {
// Every layer's adapters, with `experts` expert FFNs on each routed layer.
double whole_model_lora(const ModelShape& m, int rank, bool fused_projections, double experts) {
  const LoraSplit s = lora_params_on(m, rank, fused_projections, transformer_layers(m), routed_layers(m), experts);
  return s.experts + s.rest;
}
}  // namespace

double lora_params(const ModelShape& m, int rank, bool fused_projections) {
  return whole_model_lora(m, rank, fused_projections, m.moe_experts);
}

double lora_active_params(const ModelShape& m, int rank, bool fused_projections) {
  return whole_model_lora(m, rank, fused_projections, m.moe_top_k);
}

}  // namespace tc
