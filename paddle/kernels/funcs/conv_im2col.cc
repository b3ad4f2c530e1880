// Convolution as im2col + GEMM, for every dtype and geometry: each (sample, group) gathers its
// input patches into a matrix col [C_in/g * K, O] (K = kernel elements, O = output positions),
// so that the output is filter_g [C_out/g, C_in/g * K] x col. The backward-data routine scatters
// filter_g^T x out_grad back through col2im; the backward-filter routine accumulates
// out_grad x col^T. Geometries of rank 1 and 2 are run as rank 3 with leading unit dims.
// Channels-last tensors are transposed to channels first around the computation.
#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/blas.h"
#include "paddle/kernels/funcs/conv_compute.h"

namespace paddle::funcs {

namespace {

struct Geometry3 {
  std::array<int64_t, 3> in{1, 1, 1}, k{1, 1, 1}, out{1, 1, 1}, stride{1, 1, 1}, dilation{1, 1, 1},
      pad{0, 0, 0};
  int64_t in_size() const { return in[0] * in[1] * in[2]; }
  int64_t k_size() const { return k[0] * k[1] * k[2]; }
  int64_t out_size() const { return out[0] * out[1] * out[2]; }
};

Geometry3 ToRank3(const ConvGeometry& g) {
  Geometry3 r;
  const int shift = 3 - g.spatial_rank();
  for (int i = 0; i < g.spatial_rank(); ++i) {
    r.in[shift + i] = g.input[i];
    r.k[shift + i] = g.filter[i];
    r.out[shift + i] = g.output[i];
    r.stride[shift + i] = g.strides[i];
    r.dilation[shift + i] = g.dilations[i];
    r.pad[shift + i] = g.pad_before[i];
  }
  return r;
}

// Visits every (col row, output position) with the input offset it reads, or -1 in the padding.
// col rows are ordered (channel, k0, k1, k2), matching the filter's [C_in/g, k...] layout.
template <typename Visit>
void ForEachPatchElement(const Geometry3& g, int64_t channels, Visit&& visit) {
  int64_t row = 0;
  for (int64_t c = 0; c < channels; ++c) {
    for (int64_t a = 0; a < g.k[0]; ++a) {
      for (int64_t b = 0; b < g.k[1]; ++b) {
        for (int64_t e = 0; e < g.k[2]; ++e, ++row) {
          int64_t col = 0;
          for (int64_t o0 = 0; o0 < g.out[0]; ++o0) {
            const int64_t i0 = o0 * g.stride[0] - g.pad[0] + a * g.dilation[0];
            for (int64_t o1 = 0; o1 < g.out[1]; ++o1) {
              const int64_t i1 = o1 * g.stride[1] - g.pad[1] + b * g.dilation[1];
              const bool inside = i0 >= 0 && i0 < g.in[0] && i1 >= 0 && i1 < g.in[1];
              const int64_t base = ((c * g.in[0] + i0) * g.in[1] + i1) * g.in[2];
              for (int64_t o2 = 0; o2 < g.out[2]; ++o2, ++col) {
                const int64_t i2 = o2 * g.stride[2] - g.pad[2] + e * g.dilation[2];
                visit(row, col, inside && i2 >= 0 && i2 < g.in[2] ? base + i2 : -1);
              }
            }
          }
        }
      }
    }
  }
}

template <typename T>
void Im2col(const Geometry3& g, int64_t channels, const T* input, T* col) {
  const int64_t width = g.out_size();
  ForEachPatchElement(g, channels, [&](int64_t row, int64_t c, int64_t offset) {
    col[row * width + c] = offset >= 0 ? input[offset] : T(0);
  });
}

template <typename T>
void Col2imAdd(const Geometry3& g, int64_t channels, const T* col, T* input_grad) {
  const int64_t width = g.out_size();
  ForEachPatchElement(g, channels, [&](int64_t row, int64_t c, int64_t offset) {
    if (offset >= 0) input_grad[offset] += col[row * width + c];
  });
}

// [N, S, C] <-> [N, C, S] for channels-last tensors.
template <typename T>
void SwapChannels(const T* from, T* to, int64_t batch, int64_t outer, int64_t inner) {
  for (int64_t n = 0; n < batch; ++n) {
    const T* f = from + n * outer * inner;
    T* t = to + n * outer * inner;
    for (int64_t i = 0; i < outer; ++i) {
      for (int64_t j = 0; j < inner; ++j) t[j * outer + i] = f[i * inner + j];
    }
  }
}

// A channels-first view of a tensor: the tensor itself, or a transposed copy.
template <typename T>
class ChannelsFirst {
 public:
  ChannelsFirst(const ConvGeometry& g, const T* data, int64_t channels, int64_t spatial)
      : data_(data) {
    if (!g.channels_last) return;
    copy_.resize(g.batch * channels * spatial);
    SwapChannels(data, copy_.data(), g.batch, spatial, channels);
    data_ = copy_.data();
  }
  const T* data() const { return data_; }

 private:
  const T* data_;
  std::vector<T> copy_;
};

// Where a channels-first result is written: the destination itself, or a buffer transposed into
// it by Finish().
template <typename T>
class ChannelsFirstOutput {
 public:
  ChannelsFirstOutput(const ConvGeometry& g, T* dest, int64_t channels, int64_t spatial)
      : g_(g), dest_(dest), data_(dest), channels_(channels), spatial_(spatial) {
    if (!g.channels_last) return;
    copy_.resize(g.batch * channels * spatial);
    data_ = copy_.data();
  }
  T* data() { return data_; }
  void Finish() {
    if (g_.channels_last) SwapChannels(copy_.data(), dest_, g_.batch, channels_, spatial_);
  }

 private:
  const ConvGeometry& g_;
  T* dest_;
  T* data_;
  int64_t channels_, spatial_;
  std::vector<T> copy_;
};

}  // namespace

template <typename T>
void Im2colConvForward(const ConvGeometry& g, const T* input, const T* filter, T* output) {
  const Geometry3 r = ToRank3(g);
  const int64_t cin = g.in_channels / g.groups, cout = g.out_channels / g.groups;
  const int64_t rows = cin * r.k_size(), width = r.out_size();
  if (width == 0) return;  // an empty output
  ChannelsFirst<T> x(g, input, g.in_channels, r.in_size());
  ChannelsFirstOutput<T> y(g, output, g.out_channels, width);
  std::vector<T> col(rows * width);
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      Im2col(r, cin, x.data() + (n * g.in_channels + grp * cin) * r.in_size(), col.data());
      T* out = y.data() + (n * g.out_channels + grp * cout) * width;
      if (rows == 0) {
        std::fill(out, out + cout * width, T(0));
        continue;
      }
      Gemm<T>(false, false, cout, width, rows, T(1), filter + grp * cout * rows, rows, col.data(),
              width, T(0), out, width);
    }
  }
  y.Finish();
}

template <typename T>
void Im2colConvBackwardData(const ConvGeometry& g, const T* out_grad, const T* filter,
                            T* input_grad) {
  const Geometry3 r = ToRank3(g);
  const int64_t cin = g.in_channels / g.groups, cout = g.out_channels / g.groups;
  const int64_t rows = cin * r.k_size(), width = r.out_size();
  ChannelsFirst<T> dy(g, out_grad, g.out_channels, width);
  ChannelsFirstOutput<T> dx(g, input_grad, g.in_channels, r.in_size());
  std::fill(dx.data(), dx.data() + g.batch * g.in_channels * r.in_size(), T(0));
  if (width == 0) {  // no output position reads the input
    dx.Finish();
    return;
  }
  std::vector<T> col(rows * width);
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      if (cout == 0 || rows == 0) continue;
      Gemm<T>(true, false, rows, width, cout, T(1), filter + grp * cout * rows, rows,
              dy.data() + (n * g.out_channels + grp * cout) * width, width, T(0), col.data(),
              width);
      Col2imAdd(r, cin, col.data(), dx.data() + (n * g.in_channels + grp * cin) * r.in_size());
    }
  }
  dx.Finish();
}

template <typename T>
void Im2colConvBackwardFilter(const ConvGeometry& g, const T* input, const T* out_grad,
                              T* filter_grad) {
  const Geometry3 r = ToRank3(g);
  const int64_t cin = g.in_channels / g.groups, cout = g.out_channels / g.groups;
  const int64_t rows = cin * r.k_size(), width = r.out_size();
  std::fill(filter_grad, filter_grad + g.out_channels * rows, T(0));
  if (width == 0 || rows == 0) return;
  ChannelsFirst<T> x(g, input, g.in_channels, r.in_size());
  ChannelsFirst<T> dy(g, out_grad, g.out_channels, width);
  std::vector<T> col(rows * width);
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      Im2col(r, cin, x.data() + (n * g.in_channels + grp * cin) * r.in_size(), col.data());
      Gemm<T>(false, true, cout, rows, width, T(1),
              dy.data() + (n * g.out_channels + grp * cout) * width, width, col.data(), width, T(1),
              filter_grad + grp * cout * rows, rows);
    }
  }
}

template void Im2colConvForward<float>(const ConvGeometry&, const float*, const float*, float*);
template void Im2colConvForward<double>(const ConvGeometry&, const double*, const double*, double*);
template void Im2colConvBackwardData<float>(const ConvGeometry&, const float*, const float*,
                                            float*);
template void Im2colConvBackwardData<double>(const ConvGeometry&, const double*, const double*,
                                             double*);
template void Im2colConvBackwardFilter<float>(const ConvGeometry&, const float*, const float*,
                                              float*);
template void Im2colConvBackwardFilter<double>(const ConvGeometry&, const double*, const double*,
                                               double*);

template <>
void ConvForward<double>(const ConvGeometry& g, const double* input, const double* filter,
                         double* output) {
  Im2colConvForward(g, input, filter, output);
}

template <>
void FusedConvForward<double>(const ConvGeometry& g, const double* input, const double* filter,
                              const ConvEpilogue<double>& epilogue, double* output,
                              const ConvBlockedOperands& blocked) {
  PD_CHECK(!blocked.any(),
           errors::InvalidArgument("fused_conv2d_add_act: oneDNN's blocked layout is for float32, "
                                   "not float64 tensors"));
  Im2colConvForward(g, input, filter, output);
  ApplyConvEpilogue(g, epilogue, output);
}

template <>
void ConvBackwardData<double>(const ConvGeometry& g, const double* out_grad, const double* filter,
                              double* input_grad) {
  Im2colConvBackwardData(g, out_grad, filter, input_grad);
}

template <>
void ConvBackwardFilter<double>(const ConvGeometry& g, const double* input, const double* out_grad,
                                double* filter_grad) {
  Im2colConvBackwardFilter(g, input, out_grad, filter_grad);
}

}  // namespace paddle::funcs
