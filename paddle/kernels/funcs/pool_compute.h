// The routines the pooling ops are made of, on dense tensors laid out as the geometry's data
// format says (funcs/pool_geometry.h). Every output is overwritten.
//   PoolForward:    out = the max or average of each window of x
//   PoolBackward:   x_grad = the adjoint of PoolForward at x applied to out_grad: an average
//                   spreads each gradient over its window, a max sends it to the first element
//                   of the window equal to out (Paddle's rule for ties)
//   MaxPoolSelect:  out = grad_x_grad at the first maximum of each window of x, the gradient of
//                   PoolBackward in out_grad for max pooling (an average's is PoolForward)
// float runs PoolForward and PoolBackward on oneDNN (pool_onednn.cc) where oneDNN has the
// geometry (not adaptive, no empty dim); everything else runs on the loops of pool_loops.cc.
#pragma once

#include <cstdint>

#include "paddle/kernels/funcs/pool_geometry.h"

namespace paddle::funcs {

template <typename T>
void PoolForward(const PoolGeometry& g, PoolMode mode, const T* x, T* out);
template <typename T>
void PoolBackward(const PoolGeometry& g, PoolMode mode, const T* x, const T* out, const T* out_grad,
                  T* x_grad);

// The loops behind the routines above, for every type; the tests compare oneDNN with them.
template <typename T>
void LoopPoolForward(const PoolGeometry& g, PoolMode mode, const T* x, T* out);
template <typename T>
void LoopPoolBackward(const PoolGeometry& g, PoolMode mode, const T* x, const T* out,
                      const T* out_grad, T* x_grad);

template <typename T>
void MaxPoolSelect(const PoolGeometry& g, const T* x, const T* grad_x_grad, T* out);

// max_pool*_with_index (channels first): out = each window's maximum, mask = its flat position
// in the input plane (the first maximum on ties).
template <typename T>
void MaxPoolWithIndex(const PoolGeometry& g, const T* x, T* out, int32_t* mask);

// lp_pool2d: out = (sum of x^p over the window's input elements)^(1 / p), as Paddle's LPPool.
template <typename T>
void LpPoolForward(const PoolGeometry& g, float norm_type, const T* x, T* out);

// unpool: out = 0, then each x lands at the position its index names in its output plane (the
// last of duplicate indices wins). An index outside the plane is an OutOfRange naming `op`.
template <typename T, typename Index>
void Unpool(const char* op, const UnpoolGeometry& g, const T* x, const Index* indices, T* out);

}  // namespace paddle::funcs
