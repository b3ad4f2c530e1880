// Backward rule of the embedding lookup.
#include <cstring>
#include <vector>

#include "paddle/memory/memcpy.h"
#include "paddle/ops/backward/rule_helpers.h"
#include "paddle/ops/generated/api/cast.h"
#include "paddle/ops/generated/api/index_add.h"
#include "paddle/ops/generated/api/not_equal.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/grad_rules/embedding.h"

namespace paddle::ops::grad {

namespace {

// The sparse gradient: one row per looked-up id (repeats kept, as PaddlePaddle keeps them until
// the rows are merged), holding that position's out_grad row. Ids equal to padding_idx are left
// out, so the padding row gets nothing, as in the dense gradient. Only len(ids) x dim values are
// stored, never the table.
Tensor SparseWeightGrad(const Tensor& ids, const Tensor& rows, int64_t height,
                        int64_t padding_idx) {
  Tensor ids64 = cast(ids, DataType::INT64);
  int64_t n = ids64.numel();
  std::vector<int64_t> host_ids(n);
  memory::Copy(CPUPlace(), host_ids.data(), ids64.place(), ids64.dense().raw_data(),
               n * sizeof(int64_t));
  PD_CHECK(rows.place().is_cpu(),
           errors::Unimplemented("embedding: a sparse weight gradient on ", rows.place().ToString(),
                                 " is not supported; only CPU"));
  std::vector<int64_t> kept;
  kept.reserve(n);
  for (int64_t id : host_ids) {
    if (id != padding_idx) kept.push_back(id);
  }
  const DenseTensor& all = rows.dense();
  size_t row_bytes = n == 0 ? 0 : all.nbytes() / n;
  TensorMeta meta = all.meta();
  meta.dims = DDim({static_cast<int64_t>(kept.size()), all.dims()[1]});
  auto value = std::make_shared<DenseTensor>(meta);
  auto* dst = static_cast<char*>(value->AllocateStorage(CPUPlace()));
  const auto* src = static_cast<const char*>(all.raw_data());
  for (int64_t i = 0; i < n; ++i) {
    if (host_ids[i] == padding_idx) continue;
    std::memcpy(dst, src + i * row_bytes, row_bytes);
    dst += row_bytes;
  }
  return Tensor(std::make_shared<SelectedRows>(std::move(kept), height, std::move(value)));
}

}  // namespace

// weight_grad[r, :] = sum of out_grad rows whose id is r; the padding row gets nothing. With
// `sparse` the gradient is a SelectedRows of those rows instead of a dense table.
void embedding_grad(const Tensor& x, const Tensor& weight, const Tensor& out_grad,
                    int64_t padding_idx, bool sparse, Tensor* weight_grad) {
  if (!weight_grad) return;
  int64_t n = 1;
  for (int i = 0; i < x.dims().size(); ++i) n *= x.dims()[i];
  int64_t dim = weight.dims()[1];
  Tensor ids = reshape(x, {n});
  Tensor rows = reshape(out_grad, {n, dim});
  if (sparse) {
    *weight_grad = SparseWeightGrad(ids, rows, weight.dims()[0], padding_idx);
    return;
  }
  if (padding_idx >= 0) {
    Tensor keep = not_equal(ids, ScalarLike(ids, static_cast<double>(padding_idx)));
    rows = MaskedGrad(reshape(keep, {n, 1}), rows);
  }
  *weight_grad = index_add(ZerosLike(weight), ids, rows, 0);
}

}  // namespace paddle::ops::grad
