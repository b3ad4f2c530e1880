// Fused scaled-dot-product attention on the CPU (flash_attn), flash-attention style: each task
// takes a block of query rows of one (batch, head), computes the scores against one block of keys
// with a GEMM, keeps each row's running maximum and sum (online softmax) and accumulates the
// weights times v with a second GEMM. The scores of a head are never all held at once; the
// backward recomputes each block's weights from the saved log-sum-exp. Layouts are Paddle's:
// q [batch, seq_q, heads, head_dim], k [batch, seq_k, kv_heads, head_dim], v [batch, seq_k,
// kv_heads, value_dim], out [batch, seq_q, heads, value_dim], lse [batch, heads, seq_q].
#pragma once

#include <cstdint>

namespace paddle::funcs {

struct AttentionShape {
  int64_t batch = 0;
  int64_t seq_q = 0;
  int64_t seq_k = 0;
  int64_t heads = 0;
  int64_t kv_heads = 0;
  int64_t head_dim = 0;
  int64_t value_dim = 0;
};

// An additive mask read through element strides over [batch, heads, seq_q, seq_k] (0 along
// broadcast dims); data == nullptr for none.
template <typename T>
struct AttentionMask {
  const T* data = nullptr;
  int64_t strides[4] = {0, 0, 0, 0};
};

// Dropout of the attention weights: a weight is kept when the hash of (seed, its index) clears
// `dropout`, and kept weights are scaled by 1 / (1 - dropout). dropout == 0 for none.
struct AttentionDropout {
  float dropout = 0.0f;
  uint64_t seed = 0;
};

template <typename T>
void FlashAttentionForward(const AttentionShape& shape, const T* q, const T* k, const T* v,
                           const AttentionMask<T>& mask, const AttentionDropout& drop, bool causal,
                           T* out, T* lse);

// q_grad, k_grad and v_grad are overwritten.
template <typename T>
void FlashAttentionBackward(const AttentionShape& shape, const T* q, const T* k, const T* v,
                            const T* out, const T* lse, const T* out_grad,
                            const AttentionMask<T>& mask, const AttentionDropout& drop, bool causal,
                            T* q_grad, T* k_grad, T* v_grad);

}  // namespace paddle::funcs
