// CPU flash_attn and its gradient kernel: the shapes, mask strides and dropout seed are read
// here; the blocked computation is funcs/flash_attention.cc (compiled once per dtype).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/device_context.h"
#include "paddle/core/generator.h"
#include "paddle/kernels/funcs/flash_attention.h"
namespace paddle {

namespace {

funcs::AttentionShape AttentionShapeOf(const DenseTensor& q, const DenseTensor& k,
                                       const DenseTensor& v) {
  funcs::AttentionShape shape;
  shape.batch = q.dims()[0];
  shape.seq_q = q.dims()[1];
  shape.heads = q.dims()[2];
  shape.head_dim = q.dims()[3];
  shape.seq_k = k.dims()[1];
  shape.kv_heads = k.dims()[2];
  shape.value_dim = v.dims()[3];
  return shape;
}

// The mask's element strides over [batch, heads, seq_q, seq_k]: its dims are the trailing ones
// of those four, each 1 (broadcast, stride 0) or full.
template <typename T>
funcs::AttentionMask<T> AttentionMaskOf(const DenseTensor* attn_mask) {
  funcs::AttentionMask<T> mask;
  if (attn_mask == nullptr) return mask;
  mask.data = attn_mask->data<T>();
  const DDim& dims = attn_mask->dims();
  int64_t stride = 1;
  for (int i = dims.size() - 1, axis = 3; i >= 0; --i, --axis) {
    mask.strides[axis] = dims[i] == 1 ? 0 : stride;
    stride *= dims[i];
  }
  return mask;
}

}  // namespace

template <typename T, typename Context>
void FlashAttnKernel(const Context& ctx, const DenseTensor& q, const DenseTensor& k,
                     const DenseTensor& v, const DenseTensor* fixed_seed_offset,
                     const DenseTensor* attn_mask, float dropout, bool causal, bool return_softmax,
                     bool is_test, const std::string& rng_name, DenseTensor* out,
                     DenseTensor* softmax, DenseTensor* softmax_lse, DenseTensor* seed_offset) {
  const funcs::AttentionShape shape = AttentionShapeOf(q, k, v);
  T* o = ctx.template Alloc<T>(out);
  ctx.template Alloc<T>(softmax);
  T* lse = ctx.template Alloc<T>(softmax_lse);
  int64_t* seed = ctx.template Alloc<int64_t>(seed_offset);
  funcs::AttentionDropout drop;
  drop.dropout = is_test ? 0.0f : dropout;
  if (fixed_seed_offset != nullptr) {
    seed[0] = fixed_seed_offset->data<int64_t>()[0];
    seed[1] = fixed_seed_offset->data<int64_t>()[1];
  } else {
    // One draw of the default stream seeds the op's dropout hash.
    seed[0] =
        drop.dropout > 0.0f
            ? static_cast<int64_t>(DefaultGenerator().Use([](random::Engine* e) { return (*e)(); }))
            : 0;
    seed[1] = 0;
  }
  drop.seed = static_cast<uint64_t>(seed[0]);
  if (shape.batch * shape.seq_q * shape.heads == 0) return;
  funcs::FlashAttentionForward<T>(shape, q.data<T>(), k.data<T>(), v.data<T>(),
                                  AttentionMaskOf<T>(attn_mask), drop, causal, o, lse);
}

template <typename T, typename Context>
void FlashAttnGradKernel(const Context& ctx, const DenseTensor& q, const DenseTensor& k,
                         const DenseTensor& v, const DenseTensor& out,
                         const DenseTensor& softmax_lse, const DenseTensor& seed_offset,
                         const DenseTensor* attn_mask, const DenseTensor& out_grad, float dropout,
                         bool causal, DenseTensor* q_grad, DenseTensor* k_grad,
                         DenseTensor* v_grad) {
  T* dq = ctx.template Alloc<T>(q_grad);
  T* dk = ctx.template Alloc<T>(k_grad);
  T* dv = ctx.template Alloc<T>(v_grad);
  const funcs::AttentionShape shape = AttentionShapeOf(q, k, v);
  if (q.numel() == 0 || k.numel() == 0 || v.numel() == 0) {
    // Nothing was attended: every gradient is 0 (the buffers are null when empty).
    if (dq) std::fill(dq, dq + q.numel(), T(0));
    if (dk) std::fill(dk, dk + k.numel(), T(0));
    if (dv) std::fill(dv, dv + v.numel(), T(0));
    return;
  }
  funcs::AttentionDropout drop;
  drop.dropout = dropout;
  drop.seed = static_cast<uint64_t>(seed_offset.data<int64_t>()[0]);
  funcs::FlashAttentionBackward<T>(shape, q.data<T>(), k.data<T>(), v.data<T>(), out.data<T>(),
                                   softmax_lse.data<T>(), out_grad.data<T>(),
                                   AttentionMaskOf<T>(attn_mask), drop, causal, dq, dk, dv);
}

}  // namespace paddle
