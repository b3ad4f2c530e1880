#include "paddle/ops/infermeta/fused.h"

#include "paddle/common/errors.h"
#include "paddle/kernels/funcs/broadcast.h"
#include "paddle/kernels/funcs/fused_elemwise_plan.h"

namespace paddle {

void FusedElemwiseActivationInferMeta(const TensorMeta& x, const TensorMeta& y,
                                      const std::vector<std::string>& functor_list, int32_t axis,
                                      float scale, bool save_intermediate_out, TensorMeta* out,
                                      TensorMeta* intermediate_out) {
  const char* op = "fused_elemwise_activation";
  funcs::FusedElemwisePlan plan = funcs::ParseFusedElemwisePlan(functor_list);
  PD_CHECK(x.dtype == y.dtype,
           errors::InvalidType(op, ": 'y' has dtype ", DataTypeName(y.dtype), ", expected ",
                               DataTypeName(x.dtype), " like 'x'"));
  const DDim y_dims = funcs::AlignedOperandDims(x.dims, y.dims, axis, op);
  out->dims = funcs::BroadcastShape(x.dims, y_dims, op);
  out->dtype = x.dtype;
  intermediate_out->dtype = x.dtype;
  intermediate_out->dims = !save_intermediate_out ? DDim({0})
                           : plan.unary_outside   ? out->dims
                                                  : y.dims;
}

}  // namespace paddle
