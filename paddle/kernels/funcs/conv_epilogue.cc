#include "paddle/kernels/funcs/conv_epilogue.h"

#include <algorithm>
#include <cmath>

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/parallel_for.h"

namespace paddle::funcs {

ConvActivation ParseConvActivation(const std::string& name, const char* op) {
  if (name == "identity") return ConvActivation::kIdentity;
  if (name == "relu") return ConvActivation::kRelu;
  if (name == "relu6") return ConvActivation::kRelu6;
  if (name == "relux") return ConvActivation::kReluX;
  if (name == "sigmoid") return ConvActivation::kSigmoid;
  if (name == "tanh") return ConvActivation::kTanh;
  PD_THROW(errors::InvalidArgument(op,
                                   ": 'activation' must be one of identity, relu, relu6, relux, "
                                   "sigmoid, tanh, received '",
                                   name, "'"));
}

namespace {

template <typename T, typename Activation>
void Apply(const ConvGeometry& g, const ConvEpilogue<T>& e, Activation activation, T* out) {
  int64_t spatial = 1;
  for (int64_t s : g.output) spatial *= s;
  const int64_t channels = g.out_channels;
  // Rows of equal bias: [N * C, spatial] channels first; rows of the C channels channels last.
  const int64_t rows = g.channels_last ? g.batch * spatial : g.batch * channels;
  const int64_t width = g.channels_last ? channels : spatial;
  ParallelFor(
      rows,
      [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          T* row = out + r * width;
          const T* residual = e.residual ? e.residual + r * width : nullptr;
          for (int64_t k = 0; k < width; ++k) {
            T v = row[k];
            if (e.bias) v += e.bias[g.channels_last ? k : r % channels];
            if (residual) v += residual[k];
            row[k] = activation(v);
          }
        }
      },
      std::max<int64_t>(1, kParallelThreshold / std::max<int64_t>(width, 1)));
}

}  // namespace

template <typename T>
void ApplyConvEpilogue(const ConvGeometry& g, const ConvEpilogue<T>& epilogue, T* out) {
  const T ceiling = epilogue.activation == ConvActivation::kRelu6 ? T(6) : T(epilogue.alpha);
  switch (epilogue.activation) {
    case ConvActivation::kIdentity:
      return Apply(
          g, epilogue, [](T v) { return v; }, out);
    case ConvActivation::kRelu:
      return Apply(
          g, epilogue, [](T v) { return std::max(v, T(0)); }, out);
    case ConvActivation::kRelu6:
    case ConvActivation::kReluX:
      return Apply(
          g, epilogue, [ceiling](T v) { return std::min(std::max(v, T(0)), ceiling); }, out);
    case ConvActivation::kSigmoid:
      return Apply(
          g, epilogue, [](T v) { return T(1) / (T(1) + std::exp(-v)); }, out);
    case ConvActivation::kTanh:
      return Apply(
          g, epilogue, [](T v) { return std::tanh(v); }, out);
  }
}

template void ApplyConvEpilogue<float>(const ConvGeometry&, const ConvEpilogue<float>&, float*);
template void ApplyConvEpilogue<double>(const ConvGeometry&, const ConvEpilogue<double>&, double*);

}  // namespace paddle::funcs
