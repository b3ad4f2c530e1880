// Pooling as plain loops, for every dtype and geometry (adaptive bins included). A geometry of
// spatial rank 1 or 2 runs as rank 3 with leading unit dims, and the two data formats share one
// loop nest: the tensor is `outer` planes of `lanes` interleaved channels, where channels first
// is N * C planes of one lane and channels last N planes of C lanes (contiguous, so the lane loop
// vectorises). The forward loops run output positions in parallel; the backward loops scatter
// into the input, so each thread owns whole planes (or blocks of lanes) and nothing races.
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

  // Calls visit(flat input position) over the window of output position `o` of a plane.
  template <typename Visit>
  void ForEachInWindow(int64_t o, Visit&& visit) const {
    const int64_t o2 = o % out[2], o1 = (o / out[2]) % out[1], o0 = o / (out[2] * out[1]);
    for (int64_t a = begin[0][o0]; a < end[0][o0]; ++a) {
      for (int64_t b = begin[1][o1]; b < end[1][o1]; ++b) {
        const int64_t row = (a * in[1] + b) * in[2];
        for (int64_t c = begin[2][o2]; c < end[2][o2]; ++c) visit(row + c);
      }
    }
  }

  int64_t WindowSize(int64_t o) const {
    const int64_t o2 = o % out[2], o1 = (o / out[2]) % out[1], o0 = o / (out[2] * out[1]);
    return (end[0][o0] - begin[0][o0]) * (end[1][o1] - begin[1][o1]) *
           (end[2][o2] - begin[2][o2]);
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

int64_t KernelSize(const PoolGeometry& g) {
  int64_t n = 1;
  for (int64_t k : g.kernel) n *= k;
  return n;
}

// Lanes per backward task: 16 contiguous channels, so tasks touch whole cache lines.
constexpr int64_t kLaneBlock = 16;

// Calls fn(first lane, lane count, plane) for every (plane, block of lanes) in parallel.
template <typename Fn>
void ForEachPlaneBlock(const Windows& w, Fn&& fn) {
  const int64_t blocks = (w.lanes + kLaneBlock - 1) / kLaneBlock;
  ParallelFor(
      w.outer * blocks,
      [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) {
          const int64_t first = (t % blocks) * kLaneBlock;
          fn(first, std::min(kLaneBlock, w.lanes - first), t / blocks);
        }
      },
      /*threshold=*/2);
}

// Calls fn(plane, output position) for every output position in parallel, once the positions
// hold enough work to wake the pool (each reads about in_plane / out_plane elements per lane).
template <typename Fn>
void ForEachOutput(const Windows& w, Fn&& fn) {
  const int64_t positions = w.out_plane();
  const int64_t work = w.lanes * std::max<int64_t>(1, w.in_plane() / std::max<int64_t>(1, positions));
  ParallelFor(
      w.outer * positions,
      [&](int64_t begin, int64_t end) {
        for (int64_t t = begin; t < end; ++t) fn(t / positions, t % positions);
      },
      std::max<int64_t>(1, kParallelThreshold / work));
}

template <typename T, bool kChannelsLast>
void Forward(const Windows& w, PoolMode mode, int64_t kernel_size, const T* x, T* out) {
  const int64_t lanes = kChannelsLast ? w.lanes : 1;
  ForEachOutput(w, [&](int64_t q, int64_t o) {
    const T* in = x + q * w.in_plane() * lanes;
    T* y = out + (q * w.out_plane() + o) * lanes;
    if (mode == PoolMode::kMax) {
      std::fill(y, y + lanes, -std::numeric_limits<T>::infinity());
      w.ForEachInWindow(o, [&](int64_t p) {
        const T* v = in + p * lanes;
        // A NaN wins and stays, as in np.max.
        for (int64_t l = 0; l < lanes; ++l) y[l] = v[l] > y[l] || v[l] != v[l] ? v[l] : y[l];
      });
      return;
    }
    std::fill(y, y + lanes, T(0));
    w.ForEachInWindow(o, [&](int64_t p) {
      const T* v = in + p * lanes;
      for (int64_t l = 0; l < lanes; ++l) y[l] += v[l];
    });
    const T scale =
        T(1) / static_cast<T>(mode == PoolMode::kAvgInclusive ? kernel_size : w.WindowSize(o));
    for (int64_t l = 0; l < lanes; ++l) y[l] *= scale;
  });
}

// The flat position of the first maximum of x in the window of `o`, for lane `lane` (the first
// NaN, if any, as the forward loop's maximum is that NaN).
template <typename T>
int64_t FirstMax(const Windows& w, const T* in, int64_t lanes, int64_t lane, int64_t o) {
  int64_t best = -1;
  T value = T(0);
  w.ForEachInWindow(o, [&](int64_t p) {
    const T v = in[p * lanes + lane];
    if (best < 0 || v > value || (v != v && value == value)) best = p, value = v;
  });
  return best;
}

template <typename T, bool kChannelsLast>
void Backward(const Windows& w, PoolMode mode, int64_t kernel_size, const T* x, const T* out,
              const T* out_grad, T* x_grad) {
  const int64_t lanes = kChannelsLast ? w.lanes : 1;
  ForEachPlaneBlock(w, [&](int64_t first, int64_t count, int64_t q) {
    const T* in = x + q * w.in_plane() * lanes;
    T* dx = x_grad + q * w.in_plane() * lanes;
    for (int64_t p = 0; p < w.in_plane(); ++p) {
      std::fill(dx + p * lanes + first, dx + p * lanes + first + count, T(0));
    }
    for (int64_t o = 0; o < w.out_plane(); ++o) {
      const int64_t at = (q * w.out_plane() + o) * lanes;
      const T* dy = out_grad + at;
      if (mode == PoolMode::kMax) {
        // The first element of the window equal to the output takes the whole gradient.
        const T* y = out + at;
        for (int64_t l = first; l < first + count; ++l) {
          bool taken = false;
          w.ForEachInWindow(o, [&](int64_t p) {
            if (!taken && in[p * lanes + l] == y[l]) {
              dx[p * lanes + l] += dy[l];
              taken = true;
            }
          });
        }
        continue;
      }
      const T scale =
          T(1) / static_cast<T>(mode == PoolMode::kAvgInclusive ? kernel_size : w.WindowSize(o));
      w.ForEachInWindow(o, [&](int64_t p) {
        for (int64_t l = first; l < first + count; ++l) dx[p * lanes + l] += dy[l] * scale;
      });
    }
  });
}

template <typename T, bool kChannelsLast>
void Select(const Windows& w, const T* x, const T* grad_x_grad, T* out) {
  const int64_t lanes = kChannelsLast ? w.lanes : 1;
  ForEachOutput(w, [&](int64_t q, int64_t o) {
    const T* in = x + q * w.in_plane() * lanes;
    const T* gg = grad_x_grad + q * w.in_plane() * lanes;
    T* y = out + (q * w.out_plane() + o) * lanes;
    for (int64_t l = 0; l < lanes; ++l) y[l] = gg[FirstMax(w, in, lanes, l, o) * lanes + l];
  });
}

template <typename T, bool kChannelsLast>
void LpForward(const Windows& w, float norm_type, const T* x, T* out) {
  const int64_t lanes = kChannelsLast ? w.lanes : 1;
  const T p = static_cast<T>(norm_type), inverse = T(1) / p;
  ForEachOutput(w, [&](int64_t q, int64_t o) {
    const T* in = x + q * w.in_plane() * lanes;
    T* y = out + (q * w.out_plane() + o) * lanes;
    std::fill(y, y + lanes, T(0));
    w.ForEachInWindow(o, [&](int64_t at) {
      const T* v = in + at * lanes;
      for (int64_t l = 0; l < lanes; ++l) y[l] += std::pow(v[l], p);
    });
    for (int64_t l = 0; l < lanes; ++l) y[l] = std::pow(y[l], inverse);
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
  ForEachOutput(w, [&](int64_t q, int64_t o) {
    const T* in = x + q * w.in_plane();
    const int64_t at = FirstMax(w, in, 1, 0, o);
    out[q * w.out_plane() + o] = in[at];
    mask[q * w.out_plane() + o] = static_cast<int32_t>(at);
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
                                " at flat position ", i, "; each index must lie in [0, ",
                                out_plane, ") (the output plane of size ", out_plane, ")"));
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
      /*threshold=*/2);
}

template <>
void PoolForward<double>(const PoolGeometry& g, PoolMode mode, const double* x, double* out) {
  LoopPoolForward(g, mode, x, out);
}

template <>
void PoolBackward<double>(const PoolGeometry& g, PoolMode mode, const double* x,
                          const double* out, const double* out_grad, double* x_grad) {
  LoopPoolBackward(g, mode, x, out, out_grad, x_grad);
}

#define PD_INSTANTIATE_POOL_LOOPS(T)                                                   \
  template void LoopPoolForward<T>(const PoolGeometry&, PoolMode, const T*, T*);       \
  template void LoopPoolBackward<T>(const PoolGeometry&, PoolMode, const T*, const T*, \
                                    const T*, T*);                                     \
  template void MaxPoolSelect<T>(const PoolGeometry&, const T*, const T*, T*);         \
  template void MaxPoolWithIndex<T>(const PoolGeometry&, const T*, T*, int32_t*);      \
  template void LpPoolForward<T>(const PoolGeometry&, float, const T*, T*);
PD_INSTANTIATE_POOL_LOOPS(float)
PD_INSTANTIATE_POOL_LOOPS(double)
#undef PD_INSTANTIATE_POOL_LOOPS

// unpool moves values of any registered type.
#define PD_INSTANTIATE_UNPOOL(T)                                                              \
  template void Unpool<T, int32_t>(const char*, const UnpoolGeometry&, const T*, const int32_t*, \
                                   T*);                                                       \
  template void Unpool<T, int64_t>(const char*, const UnpoolGeometry&, const T*, const int64_t*, \
                                   T*);
PD_INSTANTIATE_UNPOOL(float)
PD_INSTANTIATE_UNPOOL(double)
PD_INSTANTIATE_UNPOOL(int32_t)
PD_INSTANTIATE_UNPOOL(int64_t)
#undef PD_INSTANTIATE_UNPOOL

}  // namespace paddle::funcs
