// Pooling as plain loops, for every dtype and geometry (adaptive bins included). A geometry of
// spatial rank 1 or 2 runs as rank 3 with leading unit dims, and the two data formats share one
// loop nest: the tensor is `outer` planes of `lanes` interleaved channels, where channels first
// is N * C planes of one lane and channels last N planes of C lanes (contiguous, so the lane loop
// vectorises).
//
// The loops walk one row of outputs (fixed o0, o1) at a time: each input row of the row's
// windows is read once, front to back, and every output of the row takes its part of it. The
// forward loops run rows in parallel; the backward loops scatter into the input, so each task
// owns a whole plane (or a block of lanes) and nothing races. Max pooling's rules are
// branch-free per lane: the first maximum wins (the first NaN, as np.max propagates it), and
// its gradient goes to the first element equal to the output.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/parallel_for.h"
#include "paddle/kernels/funcs/pool_compute.h"

namespace paddle::funcs {

namespace {

// Each output position's window per dim, clipped to the input, for the rank-3 form.
struct Windows {
  std::array<int64_t, 3> in{1, 1, 1}, out{1, 1, 1};
  std::array<std::vector<int64_t>, 3> begin, end;
  int64_t outer = 0, lanes = 1;

  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
  int64_t Size(int d, int64_t o) const { return end[d][o] - begin[d][o]; }

  // Calls visit(input row offset, in the plane's elements) for each input row of the windows of
  // output row (o0, o1), in order.
  template <typename Visit>
  void ForEachInputRow(int64_t o0, int64_t o1, Visit&& visit) const {
    for (int64_t a = begin[0][o0]; a < end[0][o0]; ++a) {
      for (int64_t b = begin[1][o1]; b < end[1][o1]; ++b) visit((a * in[1] + b) * in[2]);
    }
  }
};

Windows MakeWindows(const PoolGeometry& g) {
  Windows w;
  const int shift = 3 - g.spatial_rank();
  for (int d = 0; d < 3; ++d) {
    w.begin[d].assign(1, 0);
    w.end[d].assign(1, 1);
  }
  for (int d = 0; d < g.spatial_rank(); ++d) {
    const int r = shift + d;
    w.in[r] = g.input[d];
    w.out[r] = g.output[d];
    w.begin[r].resize(g.output[d]);
    w.end[r].resize(g.output[d]);
    for (int64_t o = 0; o < g.output[d]; ++o) {
      w.begin[r][o] = g.WindowBegin(d, o);
      w.end[r][o] = g.WindowEnd(d, o);
    }
  }
  w.outer = g.channels_last ? g.batch : g.batch * g.channels;
  w.lanes = g.channels_last ? g.channels : 1;
  return w;
}

// The divisor of an inclusive average: the kernel's size, or for adaptive bins (which are never
// padded, and which Paddle always averages over) 0, which Divisor reads as "the bin's size".
int64_t KernelSize(const PoolGeometry& g) {
  if (g.adaptive) return 0;
  int64_t n = 1;
  for (int64_t k : g.kernel) n *= k;
  return n;
}

// The divisor of output (o0, o1, o2) of an average.
int64_t Divisor(const Windows& w, PoolMode mode, int64_t kernel_size, int64_t o0, int64_t o1,
                int64_t o2) {
  return mode == PoolMode::kAvgInclusive && kernel_size > 0
             ? kernel_size
             : w.Size(0, o0) * w.Size(1, o1) * w.Size(2, o2);
}

// Calls fn(plane, o0, o1) for every output row in parallel, once the rows hold enough work to
// wake the pool.
template <typename Fn>
void ForEachOutputRow(const Windows& w, Fn&& fn) {
  const int64_t rows = w.out[0] * w.out[1];
  const int64_t work =
      w.lanes * std::max<int64_t>(w.out[2], w.in_plane() / std::max<int64_t>(rows, 1));
  ParallelFor(
      w.outer * rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          const int64_t row = t % rows;
          fn(t / rows, row / w.out[1], row % w.out[1]);
        }
      },
      std::max<int64_t>(1, kParallelThreshold / std::max<int64_t>(work, 1)));
}

// Lanes per backward task: 16 contiguous channels, so tasks touch whole cache lines.
constexpr int64_t kLaneBlock = 16;

// Calls fn(plane, first lane, lane count) for every (plane, block of lanes) in parallel.
template <typename Fn>
void ForEachPlaneBlock(const Windows& w, Fn&& fn) {
  const int64_t blocks = (w.lanes + kLaneBlock - 1) / kLaneBlock;
  ParallelFor(
      w.outer * blocks,
      [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          const int64_t first = (t % blocks) * kLaneBlock;
          fn(t / blocks, first, std::min(kLaneBlock, w.lanes - first));
        }
      },
      std::max<int64_t>(1, kParallelThreshold / std::max<int64_t>(w.in_plane() * kLaneBlock, 1)));
}

// The conditions below combine with & and |, not && and ||: short-circuit branches on random
// data mispredict, and the lane loops would not vectorise.

// Running maximum of a lane: value and flat position in the plane.
template <typename T>
void TakeIfGreater(T v, int64_t at, T* best, int64_t* where) {
  const bool take = (v > *best) | ((v != v) & (*best == *best));
  *best = take ? v : *best;
  *where = take ? at : *where;
}

template <typename T, bool kChannelsLast>
void Forward(const Windows& w, PoolMode mode, int64_t kernel_size, const T* x, T* out) {
  const int64_t lanes = kChannelsLast ? w.lanes : 1;
  const int64_t width = w.out[2];
  ForEachOutputRow(w, [&](int64_t q, int64_t o0, int64_t o1) {
    const T* in = x + q * w.in_plane() * lanes;
    T* y = out + (q * w.out_plane() + (o0 * w.out[1] + o1) * width) * lanes;
    const bool max = mode == PoolMode::kMax;
    std::fill(y, y + width * lanes, max ? -std::numeric_limits<T>::infinity() : T(0));
    w.ForEachInputRow(o0, o1, [&](int64_t row) {
      for (int64_t o2 = 0; o2 < width; ++o2) {
        T* yo = y + o2 * lanes;
        for (int64_t c = w.begin[2][o2]; c < w.end[2][o2]; ++c) {
          const T* v = in + (row + c) * lanes;
          if (max) {
            for (int64_t l = 0; l < lanes; ++l) {
              yo[l] = (v[l] > yo[l]) | (v[l] != v[l]) ? v[l] : yo[l];
            }
          } else {
            for (int64_t l = 0; l < lanes; ++l) yo[l] += v[l];
          }
        }
      }
    });
    if (max) return;
    for (int64_t o2 = 0; o2 < width; ++o2) {
      const T scale = T(1) / static_cast<T>(Divisor(w, mode, kernel_size, o0, o1, o2));
      for (int64_t l = 0; l < lanes; ++l) y[o2 * lanes + l] *= scale;
    }
  });
}

template <typename T, bool kChannelsLast>
void Backward(const Windows& w, PoolMode mode, int64_t kernel_size, const T* x, const T* out,
              const T* out_grad, T* x_grad) {
  const int64_t lanes = kChannelsLast ? w.lanes : 1;
  const int64_t width = w.out[2];
  ForEachPlaneBlock(w, [&](int64_t q, int64_t first, int64_t block) {
    // A constant 1 for channels first, so the lane loops vanish.
    const int64_t count = kChannelsLast ? block : 1;
    const T* in = x + q * w.in_plane() * lanes + first;
    T* dx = x_grad + q * w.in_plane() * lanes + first;
    for (int64_t p = 0; p < w.in_plane(); ++p)
      std::fill(dx + p * lanes, dx + p * lanes + count, T(0));
    // Whether each output (of the row, per lane) has given its gradient away yet.
    std::vector<unsigned char> taken(mode == PoolMode::kMax ? width * count : 0);
    std::vector<T> scaled(mode == PoolMode::kMax ? 0 : width * count);
    for (int64_t o0 = 0; o0 < w.out[0]; ++o0) {
      for (int64_t o1 = 0; o1 < w.out[1]; ++o1) {
        const int64_t at = (q * w.out_plane() + (o0 * w.out[1] + o1) * width) * lanes + first;
        const T* y = out + at;
        const T* dy = out_grad + at;
        if (mode == PoolMode::kMax) {
          std::fill(taken.begin(), taken.end(), 0);
        } else {
          for (int64_t o2 = 0; o2 < width; ++o2) {
            const T scale = T(1) / static_cast<T>(Divisor(w, mode, kernel_size, o0, o1, o2));
            for (int64_t l = 0; l < count; ++l) {
              scaled[o2 * count + l] = dy[o2 * lanes + l] * scale;
            }
          }
        }
        w.ForEachInputRow(o0, o1, [&](int64_t row) {
          for (int64_t o2 = 0; o2 < width; ++o2) {
            for (int64_t c = w.begin[2][o2]; c < w.end[2][o2]; ++c) {
              const int64_t p = (row + c) * lanes;
              if (mode == PoolMode::kMax) {
                unsigned char* t = taken.data() + o2 * count;
                const T* yo = y + o2 * lanes;
                const T* go = dy + o2 * lanes;
                for (int64_t l = 0; l < count; ++l) {
                  const bool hit = !t[l] & (in[p + l] == yo[l]);
                  dx[p + l] += hit ? go[l] : T(0);
                  t[l] |= hit;
                }
              } else {
                const T* g = scaled.data() + o2 * count;
                for (int64_t l = 0; l < count; ++l) dx[p + l] += g[l];
              }
            }
          }
        });
      }
    }
  });
}

// Calls done(o2, lane values of the row's first maxima, their positions) for each output of the
// row (o0, o1) of plane `in`.
template <typename T, typename Done>
void RowArgmax(const Windows& w, const T* in, int64_t lanes, int64_t o0, int64_t o1,
               std::vector<T>* best, std::vector<int64_t>* where, Done&& done) {
  const int64_t width = w.out[2];
  best->assign(width * lanes, -std::numeric_limits<T>::infinity());
  where->resize(width * lanes);
  const int64_t first_row = (w.begin[0][o0] * w.in[1] + w.begin[1][o1]) * w.in[2];
  for (int64_t o2 = 0; o2 < width; ++o2) {
    std::fill(where->begin() + o2 * lanes, where->begin() + (o2 + 1) * lanes,
              first_row + w.begin[2][o2]);
  }
  w.ForEachInputRow(o0, o1, [&](int64_t row) {
    for (int64_t o2 = 0; o2 < width; ++o2) {
      T* b = best->data() + o2 * lanes;
      int64_t* at = where->data() + o2 * lanes;
      for (int64_t c = w.begin[2][o2]; c < w.end[2][o2]; ++c) {
        const T* v = in + (row + c) * lanes;
        for (int64_t l = 0; l < lanes; ++l) TakeIfGreater(v[l], row + c, b + l, at + l);
      }
    }
  });
  for (int64_t o2 = 0; o2 < width; ++o2)
    done(o2, best->data() + o2 * lanes, where->data() + o2 * lanes);
}

template <typename T, bool kChannelsLast>
void Select(const Windows& w, const T* x, const T* grad_x_grad, T* out) {
  const int64_t lanes = kChannelsLast ? w.lanes : 1;
  ForEachOutputRow(w, [&](int64_t q, int64_t o0, int64_t o1) {
    std::vector<T> best;
    std::vector<int64_t> where;
    const T* gg = grad_x_grad + q * w.in_plane() * lanes;
    T* y = out + (q * w.out_plane() + (o0 * w.out[1] + o1) * w.out[2]) * lanes;
    RowArgmax(w, x + q * w.in_plane() * lanes, lanes, o0, o1, &best, &where,
              [&](int64_t o2, const T*, const int64_t* at) {
                for (int64_t l = 0; l < lanes; ++l) y[o2 * lanes + l] = gg[at[l] * lanes + l];
              });
  });
}

template <typename T, bool kChannelsLast>
void LpForward(const Windows& w, float norm_type, const T* x, T* out) {
  const int64_t lanes = kChannelsLast ? w.lanes : 1;
  const int64_t width = w.out[2];
  const T p = static_cast<T>(norm_type), inverse = T(1) / p;
  ForEachOutputRow(w, [&](int64_t q, int64_t o0, int64_t o1) {
    const T* in = x + q * w.in_plane() * lanes;
    T* y = out + (q * w.out_plane() + (o0 * w.out[1] + o1) * width) * lanes;
    std::fill(y, y + width * lanes, T(0));
    w.ForEachInputRow(o0, o1, [&](int64_t row) {
      for (int64_t o2 = 0; o2 < width; ++o2) {
        for (int64_t c = w.begin[2][o2]; c < w.end[2][o2]; ++c) {
          const T* v = in + (row + c) * lanes;
          for (int64_t l = 0; l < lanes; ++l) y[o2 * lanes + l] += std::pow(v[l], p);
        }
      }
    });
    for (int64_t i = 0; i < width * lanes; ++i) y[i] = std::pow(y[i], inverse);
  });
}

}  // namespace

template <typename T>
void LoopPoolForward(const PoolGeometry& g, PoolMode mode, const T* x, T* out) {
  const Windows w = MakeWindows(g);
  if (g.channels_last) return Forward<T, true>(w, mode, KernelSize(g), x, out);
  Forward<T, false>(w, mode, KernelSize(g), x, out);
}

template <typename T>
void LoopPoolBackward(const PoolGeometry& g, PoolMode mode, const T* x, const T* out,
                      const T* out_grad, T* x_grad) {
  const Windows w = MakeWindows(g);
  if (g.channels_last) return Backward<T, true>(w, mode, KernelSize(g), x, out, out_grad, x_grad);
  Backward<T, false>(w, mode, KernelSize(g), x, out, out_grad, x_grad);
}

template <typename T>
void MaxPoolSelect(const PoolGeometry& g, const T* x, const T* grad_x_grad, T* out) {
  const Windows w = MakeWindows(g);
  if (g.channels_last) return Select<T, true>(w, x, grad_x_grad, out);
  Select<T, false>(w, x, grad_x_grad, out);
}

template <typename T>
void MaxPoolWithIndex(const PoolGeometry& g, const T* x, T* out, int32_t* mask) {
  const Windows w = MakeWindows(g);
  ForEachOutputRow(w, [&](int64_t q, int64_t o0, int64_t o1) {
    std::vector<T> best;
    std::vector<int64_t> where;
    const int64_t at = q * w.out_plane() + (o0 * w.out[1] + o1) * w.out[2];
    RowArgmax(w, x + q * w.in_plane(), 1, o0, o1, &best, &where,
              [&](int64_t o2, const T* value, const int64_t* position) {
                out[at + o2] = *value;
                mask[at + o2] = static_cast<int32_t>(*position);
              });
  });
}

template <typename T>
void LpPoolForward(const PoolGeometry& g, float norm_type, const T* x, T* out) {
  const Windows w = MakeWindows(g);
  if (g.channels_last) return LpForward<T, true>(w, norm_type, x, out);
  LpForward<T, false>(w, norm_type, x, out);
}

template <typename T, typename Index>
void Unpool(const char* op, const UnpoolGeometry& g, const T* x, const Index* indices, T* out) {
  const int64_t planes = g.batch * g.channels, in_plane = g.InputPlane();
  const int64_t out_plane = g.OutputPlane();
  // Checked before the parallel scatter: an error may not leave an OpenMP region.
  for (int64_t i = 0; i < planes * in_plane; ++i) {
    PD_CHECK(indices[i] >= 0 && indices[i] < out_plane,
             errors::OutOfRange(op, ": 'indices' holds ", static_cast<int64_t>(indices[i]),
                                " at flat position ", i, "; each index must lie in [0, ", out_plane,
                                ") (the output plane of size ", out_plane, ")"));
  }
  ParallelFor(
      planes,
      [&](int64_t begin, int64_t end) {
        for (int64_t q = begin; q < end; ++q) {
          T* y = out + q * out_plane;
          std::fill(y, y + out_plane, T(0));
          for (int64_t i = 0; i < in_plane; ++i) y[indices[q * in_plane + i]] = x[q * in_plane + i];
        }
      },
      std::max<int64_t>(1, kParallelThreshold / std::max<int64_t>(out_plane, 1)));
}

template <>
void PoolForward<double>(const PoolGeometry& g, PoolMode mode, const double* x, double* out) {
  LoopPoolForward(g, mode, x, out);
}

template <>
void PoolBackward<double>(const PoolGeometry& g, PoolMode mode, const double* x, const double* out,
                          const double* out_grad, double* x_grad) {
  LoopPoolBackward(g, mode, x, out, out_grad, x_grad);
}

#define PD_INSTANTIATE_POOL_LOOPS(T)                                                             \
  template void LoopPoolForward<T>(const PoolGeometry&, PoolMode, const T*, T*);                 \
  template void LoopPoolBackward<T>(const PoolGeometry&, PoolMode, const T*, const T*, const T*, \
                                    T*);                                                         \
  template void MaxPoolSelect<T>(const PoolGeometry&, const T*, const T*, T*);                   \
  template void MaxPoolWithIndex<T>(const PoolGeometry&, const T*, T*, int32_t*);                \
  template void LpPoolForward<T>(const PoolGeometry&, float, const T*, T*);
PD_INSTANTIATE_POOL_LOOPS(float)
PD_INSTANTIATE_POOL_LOOPS(double)
#undef PD_INSTANTIATE_POOL_LOOPS

// unpool moves values of any registered type.
#define PD_INSTANTIATE_UNPOOL(T)                                                                 \
  template void Unpool<T, int32_t>(const char*, const UnpoolGeometry&, const T*, const int32_t*, \
                                   T*);                                                          \
  template void Unpool<T, int64_t>(const char*, const UnpoolGeometry&, const T*, const int64_t*, \
                                   T*);
PD_INSTANTIATE_UNPOOL(float)
PD_INSTANTIATE_UNPOOL(double)
PD_INSTANTIATE_UNPOOL(int32_t)
PD_INSTANTIATE_UNPOOL(int64_t)
#undef PD_INSTANTIATE_UNPOOL

}  // namespace paddle::funcs
