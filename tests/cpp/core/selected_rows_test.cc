// SelectedRows: the core type, its arithmetic (funcs/selected_rows_functor.h), a Variable
// holding one, and the eager path: embedding's sparse gradient, its accumulation and the
// sparse sgd kernel.
#include "paddle/core/selected_rows.h"

#include <gtest/gtest.h>

#include <vector>

#include "paddle/framework/scope.h"
#include "paddle/imperative/autograd_meta.h"
#include "paddle/imperative/backward.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/imperative/grad_node.h"
#include "paddle/kernels/funcs/selected_rows_functor.h"
#include "paddle/ops/generated/api/embedding.h"
#include "paddle/ops/generated/api/exp.h"
#include "paddle/ops/generated/api/full.h"
#include "paddle/ops/generated/api/sgd.h"
#include "paddle/ops/generated/api/sum.h"

namespace paddle {

namespace {

std::shared_ptr<DenseTensor> Values(int64_t rows, int64_t width, std::vector<float> data) {
  auto value = std::make_shared<DenseTensor>(TensorMeta{DDim({rows, width}), DataType::FLOAT32});
  float* out = static_cast<float*>(value->AllocateStorage(CPUPlace()));
  for (size_t i = 0; i < data.size(); ++i) out[i] = data[i];
  return value;
}

std::vector<float> Data(const DenseTensor& t) {
  const float* data = t.data<float>();
  return {data, data + t.numel()};
}

}  // namespace

TEST(SelectedRowsTest, CompleteDimsReplaceTheRowCountByTheHeight) {
  SelectedRows rows({4, 1}, 10, Values(2, 3, {}));
  EXPECT_EQ(rows.complete_dims(), DDim({10, 3}));
  EXPECT_EQ(rows.complete_meta().dtype, DataType::FLOAT32);
  EXPECT_EQ(funcs::RowWidth(rows), 3);
}

TEST(SelectedRowsTest, MergeSortsRowsAndSumsRepeats) {
  SelectedRows rows({3, 1, 3, 0}, 5, Values(4, 2, {1, 2, 3, 4, 5, 6, 7, 8}));
  auto merged = funcs::MergeRows(rows);
  EXPECT_EQ(merged->rows(), (std::vector<int64_t>{0, 1, 3}));
  EXPECT_EQ(merged->height(), 5);
  EXPECT_EQ(Data(merged->value()), (std::vector<float>{7, 8, 3, 4, 6, 8}));
}

TEST(SelectedRowsTest, ConcatThenDenseEqualsTheSumOfBoth) {
  SelectedRows a({1, 2}, 3, Values(2, 1, {1, 2}));
  SelectedRows b({2}, 3, Values(1, 1, {10}));
  auto both = funcs::ConcatRows(a, b);
  EXPECT_EQ(both->rows(), (std::vector<int64_t>{1, 2, 2}));
  EXPECT_EQ(Data(*funcs::RowsToDense(*both)), (std::vector<float>{0, 1, 12}));
  SelectedRows other_width({0}, 3, Values(1, 2, {1, 1}));
  EXPECT_THROW(funcs::ConcatRows(a, other_width), Error);
}

TEST(SelectedRowsTest, RowsOutsideTheTableAreRejected) {
  SelectedRows rows({0, 7}, 4, Values(2, 1, {1, 1}));
  try {
    funcs::RowsToDense(rows);
    FAIL() << "expected OutOfRange";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kOutOfRange);
    EXPECT_NE(std::string(e.what()).find("row 7"), std::string::npos);
  }
}

TEST(SelectedRowsTest, TensorHoldingRowsExposesTheValue) {
  auto rows = std::make_shared<SelectedRows>(std::vector<int64_t>{2}, 6, Values(1, 4, {}));
  Tensor t(rows);
  EXPECT_TRUE(t.is_selected_rows());
  EXPECT_EQ(t.dims(), DDim({1, 4}));  // the value's, as Paddle's shape
  EXPECT_EQ(t.impl().get(), rows->mutable_value());
  t.set_impl(std::make_shared<DenseTensor>());
  EXPECT_FALSE(t.is_selected_rows());
}

TEST(SelectedRowsTest, VariableRowsShareTheVariableTensor) {
  framework::Variable var;
  var.selected_rows()->set_rows({1, 1});
  var.selected_rows()->set_height(3);
  *var.tensor() = *Values(2, 2, {1, 2, 3, 4});
  EXPECT_EQ(&var.selected_rows()->value(), var.tensor());
  EXPECT_EQ(Data(*funcs::RowsToDense(*var.selected_rows())),
            (std::vector<float>{0, 0, 4, 6, 0, 0}));
}

class SparseEagerTest : public ::testing::Test {
 protected:
  void SetUp() override { imperative::InitEager(); }
};

TEST_F(SparseEagerTest, EmbeddingGradientIsRowsAndAccumulatesMerged) {
  Tensor weight = ops::full({5, 2}, 1.0, DataType::FLOAT32);
  imperative::EnsureAutogradMeta(&weight).stop_gradient = false;
  Tensor ids = ops::full({3}, 4.0, DataType::INT64);
  ids.dense().data<int64_t>()[1] = 1;
  imperative::Backward({ops::sum(ops::embedding(ids, weight, -1, true))}, {}, false);
  Tensor grad = imperative::GetAutogradMeta(weight)->grad;
  ASSERT_TRUE(grad.is_selected_rows());
  EXPECT_EQ(grad.selected_rows()->rows(), (std::vector<int64_t>{4, 1, 4}));
  EXPECT_EQ(grad.dims(), DDim({3, 2}));
  // A second backward merges: row 1 once, row 4 summed over its three lookups.
  imperative::Backward({ops::sum(ops::embedding(ids, weight, 1, true))}, {}, false);
  grad = imperative::GetAutogradMeta(weight)->grad;
  EXPECT_EQ(grad.selected_rows()->rows(), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(Data(grad.dense()), (std::vector<float>{1, 1, 4, 4}));
  // Sparse + dense is dense.
  Tensor sum = imperative::AddGradients(grad, ops::full({5, 2}, 0.5, DataType::FLOAT32));
  EXPECT_FALSE(sum.is_selected_rows());
  EXPECT_EQ(Data(sum.dense()),
            (std::vector<float>{0.5, 0.5, 1.5, 1.5, 0.5, 0.5, 0.5, 0.5, 4.5, 4.5}));
}

TEST_F(SparseEagerTest, SgdAppliesRowsAndOtherOpsRejectThem) {
  Tensor param = ops::full({4, 1}, 1.0, DataType::FLOAT32);
  Tensor lr = ops::full({1}, 0.5, DataType::FLOAT32);
  Tensor grad(
      std::make_shared<SelectedRows>(std::vector<int64_t>{3, 0, 3}, 4, Values(3, 1, {1, 2, 4})));
  // Out of place: the kernel updates a copy of the param.
  Tensor updated = std::get<0>(ops::sgd(param, lr, grad, Tensor(), false));
  EXPECT_EQ(Data(updated.dense()), (std::vector<float>{0, 1, 1, -1.5}));
  EXPECT_EQ(Data(param.dense()), (std::vector<float>(4, 1.0f)));
  try {
    ops::exp(grad);
    FAIL() << "expected Unimplemented";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnimplemented);
    EXPECT_NE(std::string(e.what()).find("exp: input 'x' is a SelectedRows"), std::string::npos);
  }
}

}  // namespace paddle
