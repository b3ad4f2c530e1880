// CPU kernel of Paddle's legacy mul (MulInferMeta, paddle/ops/infermeta/linalg.cc): x is read as
// the row-major matrix [M, K] (M the product of its first x_num_col_dims dims), y as [K, N], and
// out = x y is one funcs::Gemm. Dense tensors are contiguous, so no data moves to flatten them.
#include <cstring>

#include "paddle/kernels/funcs/blas.h"
#include "paddle/kernels/kernel_registry.h"

namespace paddle {

namespace {

// The product of dims [begin, end).
int64_t DimProduct(const DDim& dims, int begin, int end) {
  int64_t n = 1;
  for (int i = begin; i < end; ++i) n *= dims[i];
  return n;
}

}  // namespace

template <typename T, typename Context>
void MulKernel(const Context& ctx, const DenseTensor& x, const DenseTensor& y,
               int32_t x_num_col_dims, int32_t y_num_col_dims, DenseTensor* out) {
  T* o = ctx.template Alloc<T>(out);
  if (out->numel() == 0) return;
  const DDim& xd = x.dims();
  const DDim& yd = y.dims();
  int64_t m = DimProduct(xd, 0, x_num_col_dims);
  int64_t k = DimProduct(xd, x_num_col_dims, xd.size());
  int64_t n = DimProduct(yd, y_num_col_dims, yd.size());
  if (k == 0) {  // an empty sum: zeros
    std::memset(o, 0, out->nbytes());
    return;
  }
  funcs::Gemm<T>(false, false, m, n, k, T(1), x.data<T>(), k, y.data<T>(), n, T(0), o, n);
}

}  // namespace paddle

PD_REGISTER_KERNEL(mul, CPU, paddle::MulKernel, float, double);
