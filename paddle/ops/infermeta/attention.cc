#include "paddle/ops/infermeta/attention.h"

#include "paddle/common/errors.h"
#include "paddle/ops/infermeta/unknown_dims.h"

namespace paddle {

namespace {

void CheckQkv(const char* op, const TensorMeta& q, const TensorMeta& k, const TensorMeta& v) {
  PD_CHECK(q.dtype == DataType::FLOAT32 || q.dtype == DataType::FLOAT64,
           errors::InvalidType(op, ": argument 'q' must be float32 or float64, received ",
                               DataTypeName(q.dtype)));
  PD_CHECK(k.dtype == q.dtype && v.dtype == q.dtype,
           errors::InvalidType(op, ": arguments 'q', 'k' and 'v' must have one dtype, received ",
                               DataTypeName(q.dtype), ", ", DataTypeName(k.dtype), " and ",
                               DataTypeName(v.dtype)));
  const char* names[] = {"q", "k", "v"};
  const TensorMeta* metas[] = {&q, &k, &v};
  for (int i = 0; i < 3; ++i) {
    PD_CHECK(metas[i]->dims.size() == 4,
             errors::InvalidArgument(op, ": argument '", names[i],
                                     "' must be 4-D [batch, seq_len, num_heads, head_dim], "
                                     "received shape ",
                                     metas[i]->dims.ToString()));
  }
  PD_CHECK(DimsAgree(q.dims[0], k.dims[0]) && DimsAgree(q.dims[0], v.dims[0]),
           errors::InvalidArgument(op,
                                   ": the batch sizes of 'q', 'k' and 'v' must agree, "
                                   "received shapes ",
                                   q.dims.ToString(), ", ", k.dims.ToString(), " and ",
                                   v.dims.ToString()));
  PD_CHECK(DimsAgree(k.dims[1], v.dims[1]),
           errors::InvalidArgument(op,
                                   ": 'k' and 'v' must have one sequence length, received "
                                   "shapes ",
                                   k.dims.ToString(), " and ", v.dims.ToString()));
  PD_CHECK(DimsAgree(q.dims[3], k.dims[3]),
           errors::InvalidArgument(op,
                                   ": the head_dim of 'q' and 'k' must agree, received "
                                   "shapes ",
                                   q.dims.ToString(), " and ", k.dims.ToString()));
  PD_CHECK(DimsAgree(k.dims[2], v.dims[2]),
           errors::InvalidArgument(op,
                                   ": 'k' and 'v' must have one number of heads, received "
                                   "shapes ",
                                   k.dims.ToString(), " and ", v.dims.ToString()));
  const int64_t heads = q.dims[2];
  const int64_t kv_heads = k.dims[2];
  PD_CHECK(
      IsUnknown(heads) || IsUnknown(kv_heads) || (kv_heads > 0 && heads % kv_heads == 0) ||
          (kv_heads == 0 && heads == 0),
      errors::InvalidArgument(op, ": the heads of 'q' (", heads,
                              ") must be a multiple of the heads of 'k' and 'v' (", kv_heads, ")"));
}

void CheckMask(const char* op, const TensorMeta& q, const TensorMeta& k,
               const TensorMeta* attn_mask) {
  if (attn_mask == nullptr) return;
  PD_CHECK(
      attn_mask->dtype == q.dtype,
      errors::InvalidType(op, ": argument 'attn_mask' must have q's dtype ", DataTypeName(q.dtype),
                          ", received ", DataTypeName(attn_mask->dtype)));
  const DDim& mask = attn_mask->dims;
  const int64_t target[4] = {q.dims[0], q.dims[2], q.dims[1], k.dims[1]};
  bool fits = mask.size() >= 2 && mask.size() <= 4;
  for (int i = 0; fits && i < mask.size(); ++i) {
    const int64_t want = target[4 - mask.size() + i];
    fits = mask[i] == 1 || DimsAgree(mask[i], want);
  }
  PD_CHECK(fits, errors::InvalidArgument(
                     op,
                     ": argument 'attn_mask' must be 2-D to 4-D and broadcastable to "
                     "[batch, num_heads, seq_len_q, seq_len_k] = ",
                     DDim(target, 4).ToString(), ", received shape ", mask.ToString()));
}

}  // namespace

void FlashAttnInferMeta(const TensorMeta& q, const TensorMeta& k, const TensorMeta& v,
                        const TensorMeta* fixed_seed_offset, const TensorMeta* attn_mask,
                        float dropout, bool causal, bool return_softmax, bool is_test,
                        const std::string& rng_name, TensorMeta* out, TensorMeta* softmax,
                        TensorMeta* softmax_lse, TensorMeta* seed_offset) {
  CheckQkv("flash_attn", q, k, v);
  CheckMask("flash_attn", q, k, attn_mask);
  PD_CHECK(dropout >= 0.0f && dropout <= 1.0f,
           errors::InvalidArgument("flash_attn: attribute 'dropout' must be in [0, 1], received ",
                                   dropout));
  PD_CHECK(!return_softmax,
           errors::Unimplemented("flash_attn: attribute 'return_softmax' = true is not "
                                 "supported by the CPU kernel, which never forms the weights"));
  if (fixed_seed_offset != nullptr) {
    PD_CHECK(fixed_seed_offset->dtype == DataType::INT64,
             errors::InvalidType("flash_attn: argument 'fixed_seed_offset' must be int64, "
                                 "received ",
                                 DataTypeName(fixed_seed_offset->dtype)));
    const int64_t numel = KnownNumel(fixed_seed_offset->dims);
    PD_CHECK(numel < 0 || numel == 2,
             errors::InvalidArgument("flash_attn: argument 'fixed_seed_offset' must hold 2 "
                                     "elements (seed, offset), received shape ",
                                     fixed_seed_offset->dims.ToString()));
  }
  out->dims = DDim({q.dims[0], q.dims[1], q.dims[2], v.dims[3]});
  out->dtype = q.dtype;
  out->layout = q.layout;
  softmax->dims = DDim({0});
  softmax->dtype = q.dtype;
  softmax_lse->dims = DDim({q.dims[0], q.dims[2], q.dims[1]});
  softmax_lse->dtype = q.dtype;
  seed_offset->dims = DDim({2});
  seed_offset->dtype = DataType::INT64;
}

void FlashAttnGradInferMeta(const TensorMeta& q, const TensorMeta& k, const TensorMeta& v,
                            const TensorMeta& out, const TensorMeta& softmax_lse,
                            const TensorMeta& seed_offset, const TensorMeta* attn_mask,
                            const TensorMeta& out_grad, float dropout, bool causal,
                            TensorMeta* q_grad, TensorMeta* k_grad, TensorMeta* v_grad) {
  CheckQkv("flash_attn_grad", q, k, v);
  CheckMask("flash_attn_grad", q, k, attn_mask);
  const DDim expected_out({q.dims[0], q.dims[1], q.dims[2], v.dims[3]});
  PD_CHECK(ShapesAgree(out.dims, expected_out) && ShapesAgree(out_grad.dims, expected_out),
           errors::InvalidArgument("flash_attn_grad: arguments 'out' and 'out_grad' must have "
                                   "shape ",
                                   expected_out.ToString(), ", received ", out.dims.ToString(),
                                   " and ", out_grad.dims.ToString()));
  const DDim expected_lse({q.dims[0], q.dims[2], q.dims[1]});
  PD_CHECK(
      ShapesAgree(softmax_lse.dims, expected_lse),
      errors::InvalidArgument("flash_attn_grad: argument 'softmax_lse' must have shape ",
                              expected_lse.ToString(), ", received ", softmax_lse.dims.ToString()));
  *q_grad = q;
  *k_grad = k;
  *v_grad = v;
}

}  // namespace paddle
