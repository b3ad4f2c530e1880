// InferMeta of flash_attn and its gradient kernel (paddle/ops/yaml/attention.yaml).
#pragma once

#include <string>

#include "paddle/core/tensor_meta.h"

namespace paddle {

// q [batch, seq_q, heads, head_dim], k [batch, seq_k, kv_heads, head_dim] and v [batch, seq_k,
// kv_heads, value_dim] of one floating dtype, heads a multiple of kv_heads; attn_mask (q's dtype)
// broadcastable to [batch, heads, seq_q, seq_k]; fixed_seed_offset int64 with 2 elements;
// dropout in [0, 1]. out is [batch, seq_q, heads, value_dim], softmax_lse [batch, heads, seq_q],
// seed_offset int64 [2], softmax empty.
void FlashAttnInferMeta(const TensorMeta& q, const TensorMeta& k, const TensorMeta& v,
                        const TensorMeta* fixed_seed_offset, const TensorMeta* attn_mask,
                        float dropout, bool causal, bool return_softmax, bool is_test,
                        const std::string& rng_name, TensorMeta* out, TensorMeta* softmax,
                        TensorMeta* softmax_lse, TensorMeta* seed_offset);

// The gradients have the metas of q, k and v.
void FlashAttnGradInferMeta(const TensorMeta& q, const TensorMeta& k, const TensorMeta& v,
                            const TensorMeta& out, const TensorMeta& softmax_lse,
                            const TensorMeta& seed_offset, const TensorMeta* attn_mask,
                            const TensorMeta& out_grad, float dropout, bool causal,
                            TensorMeta* q_grad, TensorMeta* k_grad, TensorMeta* v_grad);

}  // namespace paddle
