// Arithmetic on SelectedRows (paddle/core/selected_rows.h) in host memory: merging repeated
// rows, joining two sets of rows and adding rows into a dense table. Autograd uses them to sum
// sparse gradients, the sparse optimizer kernels to merge a gradient's rows first. Floating
// dtypes only; a SelectedRows on another device raises Unimplemented.
#pragma once

#include <memory>

#include "paddle/core/selected_rows.h"

namespace paddle::funcs {

// Calls fn(T{}) with T the floating type `dtype` names; InvalidType naming `what` otherwise.
template <typename Fn>
void VisitFloatingType(DataType dtype, const char* what, Fn&& fn) {
  switch (dtype) {
    case DataType::FLOAT16:
      return fn(float16{});
    case DataType::BFLOAT16:
      return fn(bfloat16{});
    case DataType::FLOAT32:
      return fn(float{});
    case DataType::FLOAT64:
      return fn(double{});
    default:
      PD_THROW(
          errors::InvalidType(what, ": expected a floating dtype, received ", DataTypeName(dtype)));
  }
}

// Rows sorted ascending and unique, the values of a repeated row summed (Paddle's MergeAdd).
std::shared_ptr<SelectedRows> MergeRows(const SelectedRows& in);
// a's rows then b's, unmerged. Heights, widths and dtypes must agree.
std::shared_ptr<SelectedRows> ConcatRows(const SelectedRows& a, const SelectedRows& b);
// dense[rows[i], :] += value[i, :] for every i; `dense` has the complete dims.
void AddRowsTo(const SelectedRows& in, DenseTensor* dense);
// The dense table the rows stand for: zeros where no row is given, the sum where one repeats.
std::shared_ptr<DenseTensor> RowsToDense(const SelectedRows& in);
// A copy with storage of its own.
std::shared_ptr<SelectedRows> CopyRows(const SelectedRows& in);
// Every row in [0, height), else OutOfRange naming `what`.
void CheckRowsInRange(const SelectedRows& in, const char* what);
// The number of values per row (the product of the value dims after the first).
int64_t RowWidth(const SelectedRows& in);

}  // namespace paddle::funcs
