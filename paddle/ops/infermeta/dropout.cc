#include "paddle/ops/infermeta/dropout.h"

#include "paddle/common/errors.h"

namespace paddle {

void DropoutInferMeta(const TensorMeta& x, const TensorMeta* seed_tensor, const Scalar& p,
                      bool is_test, const std::string& mode, int32_t seed, bool fix_seed,
                      TensorMeta* out, TensorMeta* mask) {
  PD_CHECK(IsFloating(x.dtype),
           errors::InvalidType("dropout: argument 'x' must be floating-point, received ",
                               DataTypeName(x.dtype)));
  const double prob = p.to<double>();
  PD_CHECK(
      prob >= 0.0 && prob <= 1.0,
      errors::InvalidArgument("dropout: argument 'p' must be in [0, 1], received ", p.ToString()));
  PD_CHECK(mode == "upscale_in_train" || mode == "downgrade_in_infer",
           errors::InvalidArgument("dropout: argument 'mode' must be 'upscale_in_train' or "
                                   "'downgrade_in_infer', received '",
                                   mode, "'"));
  if (seed_tensor != nullptr) {
    PD_CHECK(seed_tensor->dtype == DataType::INT32 || seed_tensor->dtype == DataType::INT64,
             errors::InvalidType("dropout: argument 'seed_tensor' must be int32 or int64, "
                                 "received ",
                                 DataTypeName(seed_tensor->dtype)));
    bool known = true;
    for (int i = 0; i < seed_tensor->dims.size(); ++i) known = known && seed_tensor->dims[i] >= 0;
    PD_CHECK(!known || seed_tensor->dims.numel() == 1,
             errors::InvalidArgument("dropout: argument 'seed_tensor' must hold one element, "
                                     "received shape ",
                                     seed_tensor->dims.ToString()));
  }
  *out = x;
  mask->dims = x.dims;
  mask->dtype = DataType::UINT8;
  mask->layout = x.layout;
}

}  // namespace paddle
