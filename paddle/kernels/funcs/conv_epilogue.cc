#include "paddle/kernels/funcs/conv_epilogue.h"

#include <algorithm>
#include <cmath>

#include "paddle/common/errors.h"

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

template <typename T>
void ApplyConvEpilogue(const ConvGeometry& g, const ConvEpilogue<T>& epilogue, T* out) {
  int64_t spatial = 1;
  for (int64_t s : g.output) spatial *= s;
  const int64_t channels = g.out_channels;
  const int64_t total = g.batch * channels * spatial;
  const T ceiling = epilogue.activation == ConvActivation::kRelu6 ? T(6) : T(epilogue.alpha);
  for (int64_t i = 0; i < total; ++i) {
    const int64_t c = g.channels_last ? i % channels : (i / spatial) % channels;
    T v = out[i];
    if (epilogue.bias) v += epilogue.bias[c];
    if (epilogue.residual) v += epilogue.residual[i];
    switch (epilogue.activation) {
      case ConvActivation::kIdentity:
        break;
      case ConvActivation::kRelu:
        v = std::max(v, T(0));
        break;
      case ConvActivation::kRelu6:
      case ConvActivation::kReluX:
        v = std::min(std::max(v, T(0)), ceiling);
        break;
      case ConvActivation::kSigmoid:
        v = T(1) / (T(1) + std::exp(-v));
        break;
      case ConvActivation::kTanh:
        v = std::tanh(v);
        break;
    }
    out[i] = v;
  }
}

template void ApplyConvEpilogue<float>(const ConvGeometry&, const ConvEpilogue<float>&, float*);
template void ApplyConvEpilogue<double>(const ConvGeometry&, const ConvEpilogue<double>&, double*);

}  // namespace paddle::funcs
