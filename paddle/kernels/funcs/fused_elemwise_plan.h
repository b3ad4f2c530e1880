// What Paddle's fused_elemwise_activation computes, read from its functor_list: a unary functor
// (relu, tanh, sigmoid, scale) over a binary one (elementwise_add, elementwise_mul),
// ["relu", "elementwise_add"] = relu(x + y), or the binary one with the unary one on y,
// ["elementwise_add", "relu"] = x + relu(y). Shared by the op's InferMeta and kernel.
#pragma once

#include <string>
#include <vector>

#include "paddle/common/ddim.h"

namespace paddle::funcs {

struct FusedElemwisePlan {
  enum class Unary { kRelu, kTanh, kSigmoid, kScale };
  enum class Binary { kAdd, kMul };
  Unary unary = Unary::kRelu;
  Binary binary = Binary::kAdd;
  bool unary_outside = true;  // unary(binary(x, y)); else binary(x, unary(y))
};

// Throws InvalidArgument naming the op for any other list.
FusedElemwisePlan ParseFusedElemwisePlan(const std::vector<std::string>& functor_list);

// y's dims as numpy broadcasting reads them for Paddle's `axis`: y's dims placed from axis `axis`
// of x's (-1: aligned to the end), padded with 1s. Throws InvalidArgument when they do not fit.
DDim AlignedOperandDims(const DDim& x, const DDim& y, int axis, const char* op);

}  // namespace paddle::funcs
