#include "paddle/ops/infermeta/collective.h"

#include "paddle/common/errors.h"

namespace paddle {

namespace {

void CheckNranks(const char* op, const TensorMeta& x, int nranks) {
  PD_CHECK(nranks >= 1,
           errors::InvalidArgument(op, ": attribute nranks must be at least 1, received ", nranks));
  PD_CHECK(x.dims.size() >= 1,
           errors::InvalidArgument(op,
                                   ": input X must have at least one dimension, received a "
                                   "0-D tensor"));
}

}  // namespace

void CAllgatherInferMeta(const TensorMeta& x, int ring_id, int nranks, bool use_calc_stream,
                         TensorMeta* out) {
  CheckNranks("c_allgather", x, nranks);
  *out = x;
  if (x.dims[0] >= 0) out->dims[0] = x.dims[0] * nranks;
}

void CReducescatterInferMeta(const TensorMeta& x, int ring_id, int nranks, bool use_calc_stream,
                             TensorMeta* out) {
  CheckNranks("c_reducescatter", x, nranks);
  PD_CHECK(x.dims[0] < 0 || x.dims[0] % nranks == 0,
           errors::InvalidArgument("c_reducescatter: the first dimension of X (", x.dims[0],
                                   ") must be divisible by nranks (", nranks, ")"));
  *out = x;
  if (x.dims[0] >= 0) out->dims[0] = x.dims[0] / nranks;
}

}  // namespace paddle
