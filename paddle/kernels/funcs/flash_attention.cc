#include "paddle/kernels/funcs/flash_attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "paddle/kernels/funcs/blas.h"
#include "paddle/kernels/funcs/fast_math.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

namespace {

// Query rows and keys per block: a block's scores (64 x 256 floats) and the rows' accumulators
// stay in the L2 cache between the two GEMMs.
constexpr int64_t kQueryBlock = 64;
constexpr int64_t kKeyBlock = 256;

inline uint64_t SplitMix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// The dropout draw of weight (row, column): a 32-bit hash per weight over a key per row, so a
// row's draws vectorize and the backward regenerates them.
inline uint32_t RowKey(uint64_t seed, int64_t row) {
  return static_cast<uint32_t>(SplitMix64(seed ^ SplitMix64(static_cast<uint64_t>(row))));
}

inline uint32_t WeightHash(uint32_t row_key, int64_t column) {
  uint32_t x = row_key + static_cast<uint32_t>(column) * 0x9e3779b9u;
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Multiplies weights[c] (columns first_column.. of row_key's row) by 1 / (1 - p) when kept, else
// by 0, into dst (which may be weights).
template <typename T>
void ApplyDropout(const AttentionDropout& drop, uint32_t row_key, int64_t first_column,
                  int64_t columns, const T* weights, T* dst) {
  // A weight is kept when the top 24 bits of its hash, as a fraction of 2^24, are >= p.
  const uint32_t threshold = static_cast<uint32_t>(static_cast<double>(drop.dropout) * 16777216.0);
  const T keep_scale = drop.dropout >= 1.0f ? T(0) : T(1) / (T(1) - static_cast<T>(drop.dropout));
  for (int64_t c = 0; c < columns; ++c) {
    const bool kept = (WeightHash(row_key, first_column + c) >> 8) >= threshold;
    dst[c] = kept ? weights[c] * keep_scale : T(0);
  }
}

// Adds the mask's values of (batch, head, row) for columns [first, first + columns) to scores,
// and sets the causally hidden ones (column > row) to -inf.
template <typename T>
void MaskScores(const AttentionMask<T>& mask, bool causal, int64_t b, int64_t h, int64_t row,
                int64_t first, int64_t columns, T* scores) {
  if (causal) {
    const int64_t visible = std::clamp<int64_t>(row - first + 1, 0, columns);
    std::fill(scores + visible, scores + columns, -std::numeric_limits<T>::infinity());
    return;  // the mask is ignored in causal mode
  }
  if (mask.data == nullptr) return;
  const T* m = mask.data + b * mask.strides[0] + h * mask.strides[1] + row * mask.strides[2] +
               first * mask.strides[3];
  if (mask.strides[3] == 1) {
    for (int64_t c = 0; c < columns; ++c) scores[c] += m[c];
  } else {
    for (int64_t c = 0; c < columns; ++c) scores[c] += m[c * mask.strides[3]];
  }
}

// The maximum and the sum of a score row, over independent lanes: GCC does not vectorize a
// floating-point reduction it would have to reorder (no -ffast-math), but it does vectorize the
// lanes.
constexpr int kLanes = 16;

template <typename T>
T RowMax(const T* x, int64_t n) {
  T lanes[kLanes];
  std::fill(lanes, lanes + kLanes, -std::numeric_limits<T>::infinity());
  int64_t c = 0;
  for (; c + kLanes <= n; c += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] = lanes[l] > x[c + l] ? lanes[l] : x[c + l];
  }
  for (; c < n; ++c) lanes[0] = lanes[0] > x[c] ? lanes[0] : x[c];
  return *std::max_element(lanes, lanes + kLanes);
}

template <typename T>
T RowSum(const T* x, int64_t n) {
  T lanes[kLanes] = {};
  int64_t c = 0;
  for (; c + kLanes <= n; c += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] += x[c + l];
  }
  for (; c < n; ++c) lanes[0] += x[c];
  T total = 0;
  for (int l = 0; l < kLanes; ++l) total += lanes[l];
  return total;
}

template <typename T>
T RowDot(const T* x, const T* y, int64_t n) {
  T lanes[kLanes] = {};
  int64_t c = 0;
  for (; c + kLanes <= n; c += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] += x[c + l] * y[c + l];
  }
  for (; c < n; ++c) lanes[0] += x[c] * y[c];
  T total = 0;
  for (int l = 0; l < kLanes; ++l) total += lanes[l];
  return total;
}

// The number of keys a causal block of rows [first_row, first_row + rows) sees at all.
int64_t VisibleKeys(const AttentionShape& s, bool causal, int64_t first_row, int64_t rows) {
  return causal ? std::min(s.seq_k, first_row + rows) : s.seq_k;
}

}  // namespace

template <typename T>
void FlashAttentionForward(const AttentionShape& s, const T* q, const T* k, const T* v,
                           const AttentionMask<T>& mask, const AttentionDropout& drop, bool causal,
                           T* out, T* lse) {
  const int64_t D = s.head_dim, Dv = s.value_dim;
  const int64_t ldq = s.heads * D, ldk = s.kv_heads * D, ldv = s.kv_heads * Dv;
  const int64_t group = s.heads / s.kv_heads;
  const T scale = T(1) / std::sqrt(static_cast<T>(D));
  const int64_t query_blocks = (s.seq_q + kQueryBlock - 1) / kQueryBlock;
  const T neg_inf = -std::numeric_limits<T>::infinity();
  ParallelFor(
      s.batch * s.heads * query_blocks,
      [&](int64_t begin, int64_t end) {
        std::vector<T> scores(kQueryBlock * kKeyBlock);
        std::vector<T> acc(kQueryBlock * Dv);
        std::vector<T> row_max(kQueryBlock), row_sum(kQueryBlock);
        for (int64_t task = begin; task < end; ++task) {
          const int64_t block = task % query_blocks;
          const int64_t h = (task / query_blocks) % s.heads;
          const int64_t b = task / (query_blocks * s.heads);
          const int64_t kvh = h / group;
          const int64_t i0 = block * kQueryBlock;
          const int64_t rows = std::min(kQueryBlock, s.seq_q - i0);
          const T* qb = q + ((b * s.seq_q + i0) * s.heads + h) * D;
          const T* kb = k + (b * s.seq_k * s.kv_heads + kvh) * D;
          const T* vb = v + (b * s.seq_k * s.kv_heads + kvh) * Dv;
          std::fill(acc.begin(), acc.begin() + rows * Dv, T(0));
          std::fill(row_max.begin(), row_max.end(), neg_inf);
          std::fill(row_sum.begin(), row_sum.end(), T(0));
          const int64_t keys = VisibleKeys(s, causal, i0, rows);
          for (int64_t j0 = 0; j0 < keys; j0 += kKeyBlock) {
            const int64_t cols = std::min(kKeyBlock, keys - j0);
            Gemm<T>(false, true, rows, cols, D, scale, qb, ldq, kb + j0 * ldk, ldk, T(0),
                    scores.data(), kKeyBlock);
            for (int64_t r = 0; r < rows; ++r) {
              T* srow = scores.data() + r * kKeyBlock;
              const int64_t i = i0 + r;
              MaskScores(mask, causal, b, h, i, j0, cols, srow);
              const T new_max = std::max(row_max[r], RowMax(srow, cols));
              if (new_max == neg_inf) {  // every key so far is masked: no weight yet
                std::fill(srow, srow + cols, T(0));
                continue;
              }
              for (int64_t c = 0; c < cols; ++c) srow[c] = Exp(srow[c] - new_max);
              const T sum = RowSum(srow, cols);
              const T rescale = Exp(row_max[r] - new_max);
              if (rescale != T(1)) {
                T* arow = acc.data() + r * Dv;
                for (int64_t d = 0; d < Dv; ++d) arow[d] *= rescale;
              }
              row_sum[r] = row_sum[r] * rescale + sum;
              row_max[r] = new_max;
              if (drop.dropout > 0.0f) {
                const int64_t weight_row = (b * s.heads + h) * s.seq_q + i;
                ApplyDropout(drop, RowKey(drop.seed, weight_row), j0, cols, srow, srow);
              }
            }
            Gemm<T>(false, false, rows, Dv, cols, T(1), scores.data(), kKeyBlock, vb + j0 * ldv,
                    ldv, T(1), acc.data(), Dv);
          }
          for (int64_t r = 0; r < rows; ++r) {
            T* orow = out + ((b * s.seq_q + i0 + r) * s.heads + h) * Dv;
            const T* arow = acc.data() + r * Dv;
            const int64_t lse_index = (b * s.heads + h) * s.seq_q + i0 + r;
            if (row_sum[r] == T(0)) {
              std::fill(orow, orow + Dv, T(0));
              lse[lse_index] = neg_inf;
              continue;
            }
            const T inv = T(1) / row_sum[r];
            for (int64_t d = 0; d < Dv; ++d) orow[d] = arow[d] * inv;
            lse[lse_index] = row_max[r] + std::log(row_sum[r]);
          }
        }
      },
      2);
}

template <typename T>
void FlashAttentionBackward(const AttentionShape& s, const T* q, const T* k, const T* v,
                            const T* out, const T* lse, const T* out_grad,
                            const AttentionMask<T>& mask, const AttentionDropout& drop, bool causal,
                            T* q_grad, T* k_grad, T* v_grad) {
  const int64_t D = s.head_dim, Dv = s.value_dim;
  const int64_t ldq = s.heads * D, ldk = s.kv_heads * D, ldv = s.kv_heads * Dv;
  const int64_t ldo = s.heads * Dv;
  const int64_t group = s.heads / s.kv_heads;
  const T scale = T(1) / std::sqrt(static_cast<T>(D));
  const T neg_inf = -std::numeric_limits<T>::infinity();
  std::fill(q_grad, q_grad + s.batch * s.seq_q * s.heads * D, T(0));
  std::fill(k_grad, k_grad + s.batch * s.seq_k * s.kv_heads * D, T(0));
  std::fill(v_grad, v_grad + s.batch * s.seq_k * s.kv_heads * Dv, T(0));
  // One task per (batch, kv head): it alone writes that head's k_grad and v_grad rows.
  ParallelFor(
      s.batch * s.kv_heads,
      [&](int64_t begin, int64_t end) {
        std::vector<T> scores(kQueryBlock * kKeyBlock);
        std::vector<T> kept(drop.dropout > 0.0f ? kQueryBlock * kKeyBlock : 0);
        std::vector<T> weight_grad(kQueryBlock * kKeyBlock);
        std::vector<T> row_dot(kQueryBlock);
        for (int64_t task = begin; task < end; ++task) {
          const int64_t kvh = task % s.kv_heads;
          const int64_t b = task / s.kv_heads;
          const T* kb = k + (b * s.seq_k * s.kv_heads + kvh) * D;
          const T* vb = v + (b * s.seq_k * s.kv_heads + kvh) * Dv;
          T* dkb = k_grad + (b * s.seq_k * s.kv_heads + kvh) * D;
          T* dvb = v_grad + (b * s.seq_k * s.kv_heads + kvh) * Dv;
          for (int64_t h = kvh * group; h < (kvh + 1) * group; ++h) {
            for (int64_t i0 = 0; i0 < s.seq_q; i0 += kQueryBlock) {
              const int64_t rows = std::min(kQueryBlock, s.seq_q - i0);
              const T* qb = q + ((b * s.seq_q + i0) * s.heads + h) * D;
              T* dqb = q_grad + ((b * s.seq_q + i0) * s.heads + h) * D;
              const T* ob = out + ((b * s.seq_q + i0) * s.heads + h) * Dv;
              const T* dob = out_grad + ((b * s.seq_q + i0) * s.heads + h) * Dv;
              const T* lse_rows = lse + (b * s.heads + h) * s.seq_q + i0;
              // rowsum(dout * out) = sum_j (dropped weight_ij) (dout_i . v_j), the term the
              // softmax's gradient subtracts.
              for (int64_t r = 0; r < rows; ++r)
                row_dot[r] = RowDot(dob + r * ldo, ob + r * ldo, Dv);
              const int64_t keys = VisibleKeys(s, causal, i0, rows);
              for (int64_t j0 = 0; j0 < keys; j0 += kKeyBlock) {
                const int64_t cols = std::min(kKeyBlock, keys - j0);
                Gemm<T>(false, true, rows, cols, D, scale, qb, ldq, kb + j0 * ldk, ldk, T(0),
                        scores.data(), kKeyBlock);
                for (int64_t r = 0; r < rows; ++r) {
                  T* srow = scores.data() + r * kKeyBlock;
                  MaskScores(mask, causal, b, h, i0 + r, j0, cols, srow);
                  const T row_lse = lse_rows[r];
                  if (row_lse == neg_inf) {
                    std::fill(srow, srow + cols, T(0));
                  } else {
                    for (int64_t c = 0; c < cols; ++c) srow[c] = Exp(srow[c] - row_lse);
                  }
                  if (!kept.empty()) {
                    const int64_t weight_row = (b * s.heads + h) * s.seq_q + i0 + r;
                    ApplyDropout(drop, RowKey(drop.seed, weight_row), j0, cols, srow,
                                 kept.data() + r * kKeyBlock);
                  }
                }
                const T* dropped = kept.empty() ? scores.data() : kept.data();
                // v_grad += weights^T dout
                Gemm<T>(true, false, cols, Dv, rows, T(1), dropped, kKeyBlock, dob, ldo, T(1),
                        dvb + j0 * ldv, ldv);
                // The gradient of the kept weights: dout v^T.
                Gemm<T>(false, true, rows, cols, Dv, T(1), dob, ldo, vb + j0 * ldv, ldv, T(0),
                        weight_grad.data(), kKeyBlock);
                if (!kept.empty()) {
                  for (int64_t r = 0; r < rows; ++r) {
                    T* grow = weight_grad.data() + r * kKeyBlock;
                    const int64_t weight_row = (b * s.heads + h) * s.seq_q + i0 + r;
                    ApplyDropout(drop, RowKey(drop.seed, weight_row), j0, cols, grow, grow);
                  }
                }
                // The scores' gradient, into the weights' buffer: p (dp - rowsum(dout out)).
                for (int64_t r = 0; r < rows; ++r) {
                  T* srow = scores.data() + r * kKeyBlock;
                  const T* grow = weight_grad.data() + r * kKeyBlock;
                  for (int64_t c = 0; c < cols; ++c) srow[c] = srow[c] * (grow[c] - row_dot[r]);
                }
                Gemm<T>(false, false, rows, D, cols, scale, scores.data(), kKeyBlock, kb + j0 * ldk,
                        ldk, T(1), dqb, ldq);
                Gemm<T>(true, false, cols, D, rows, scale, scores.data(), kKeyBlock, qb, ldq, T(1),
                        dkb + j0 * ldk, ldk);
              }
            }
          }
        }
      },
      2);
}

template void FlashAttentionForward<float>(const AttentionShape&, const float*, const float*,
                                           const float*, const AttentionMask<float>&,
                                           const AttentionDropout&, bool, float*, float*);
template void FlashAttentionForward<double>(const AttentionShape&, const double*, const double*,
                                            const double*, const AttentionMask<double>&,
                                            const AttentionDropout&, bool, double*, double*);
template void FlashAttentionBackward<float>(const AttentionShape&, const float*, const float*,
                                            const float*, const float*, const float*, const float*,
                                            const AttentionMask<float>&, const AttentionDropout&,
                                            bool, float*, float*, float*);
template void FlashAttentionBackward<double>(const AttentionShape&, const double*, const double*,
                                             const double*, const double*, const double*,
                                             const double*, const AttentionMask<double>&,
                                             const AttentionDropout&, bool, double*, double*,
                                             double*);

}  // namespace paddle::funcs
