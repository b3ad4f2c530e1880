#include "paddle/kernels/funcs/fused_elemwise_plan.h"

#include "paddle/common/errors.h"

namespace paddle::funcs {

namespace {

bool ParseUnary(const std::string& name, FusedElemwisePlan::Unary* unary) {
  using Unary = FusedElemwisePlan::Unary;
  if (name == "relu")
    *unary = Unary::kRelu;
  else if (name == "tanh")
    *unary = Unary::kTanh;
  else if (name == "sigmoid")
    *unary = Unary::kSigmoid;
  else if (name == "scale")
    *unary = Unary::kScale;
  else
    return false;
  return true;
}

bool ParseBinary(const std::string& name, FusedElemwisePlan::Binary* binary) {
  using Binary = FusedElemwisePlan::Binary;
  if (name == "elementwise_add")
    *binary = Binary::kAdd;
  else if (name == "elementwise_mul")
    *binary = Binary::kMul;
  else
    return false;
  return true;
}

}  // namespace

FusedElemwisePlan ParseFusedElemwisePlan(const std::vector<std::string>& functor_list) {
  FusedElemwisePlan plan;
  const bool ok =
      functor_list.size() == 2 &&
      ((ParseUnary(functor_list[0], &plan.unary) && ParseBinary(functor_list[1], &plan.binary)) ||
       (ParseBinary(functor_list[0], &plan.binary) && ParseUnary(functor_list[1], &plan.unary)));
  std::string received;
  for (const std::string& f : functor_list) received += (received.empty() ? "" : ", ") + f;
  PD_CHECK(ok, errors::InvalidArgument(
                   "fused_elemwise_activation: 'functor_list' must be a unary functor (relu, "
                   "tanh, sigmoid, scale) and a binary one (elementwise_add, elementwise_mul) in "
                   "either order, received [",
                   received, "]"));
  plan.unary_outside = !ParseBinary(functor_list[0], &plan.binary);
  return plan;
}

DDim AlignedOperandDims(const DDim& x, const DDim& y, int axis, const char* op) {
  if (axis == -1 || y.size() == x.size()) return y;
  PD_CHECK(axis >= 0 && axis + y.size() <= x.size(),
           errors::InvalidArgument(op, ": 'axis' ", axis, " does not place 'y' of shape ",
                                   y.ToString(), " inside 'x' of shape ", x.ToString()));
  std::vector<int64_t> dims(x.size(), 1);
  for (int i = 0; i < y.size(); ++i) dims[axis + i] = y[i];
  return DDim(dims);
}

}  // namespace paddle::funcs
