// The CPU kernels of the shape-manipulation and indexing ops, run through the C++ op API: views
// sharing their input's buffer, permuted and strided copies, broadcasting, accumulation of
// repeated indices, data-dependent output sizes, and the errors bad indices raise.
#include <gtest/gtest.h>

#include <numeric>

#include "paddle/core/device_context.h"
#include "paddle/imperative/eager_dispatch.h"
#include "paddle/ops/generated/api/concat.h"
#include "paddle/ops/generated/api/expand.h"
#include "paddle/ops/generated/api/flatten.h"
#include "paddle/ops/generated/api/gather.h"
#include "paddle/ops/generated/api/gather_nd.h"
#include "paddle/ops/generated/api/index_add.h"
#include "paddle/ops/generated/api/index_select.h"
#include "paddle/ops/generated/api/masked_scatter.h"
#include "paddle/ops/generated/api/masked_select.h"
#include "paddle/ops/generated/api/nonzero.h"
#include "paddle/ops/generated/api/reshape.h"
#include "paddle/ops/generated/api/scatter_nd_add.h"
#include "paddle/ops/generated/api/set_value_with_tensor.h"
#include "paddle/ops/generated/api/slice.h"
#include "paddle/ops/generated/api/split.h"
#include "paddle/ops/generated/api/squeeze.h"
#include "paddle/ops/generated/api/stack.h"
#include "paddle/ops/generated/api/strided_slice.h"
#include "paddle/ops/generated/api/transpose.h"
#include "paddle/ops/generated/api/unsqueeze.h"
#include "paddle/ops/op_schema.h"

namespace paddle {

namespace {

class ManipulationTest : public ::testing::Test {
 protected:
  void SetUp() override { imperative::InitEager(); }
};

template <typename T>
Tensor Make(const std::vector<int64_t>& shape, const std::vector<T>& values) {
  auto dense = std::make_shared<DenseTensor>(TensorMeta{DDim(shape), kDataTypeOf<T>});
  T* data = GetDeviceContext(CPUPlace()).Alloc<T>(dense.get());
  EXPECT_EQ(static_cast<int64_t>(values.size()), dense->numel());
  std::copy(values.begin(), values.end(), data);
  return Tensor(dense);
}

// A float tensor holding 0, 1, 2, ... in row-major order.
Tensor Iota(const std::vector<int64_t>& shape) {
  std::vector<float> values(DDim(shape).numel());
  std::iota(values.begin(), values.end(), 0.0f);
  return Make<float>(shape, values);
}

template <typename T = float>
std::vector<T> Values(const Tensor& t) {
  const T* data = t.dense().data<T>();
  return std::vector<T>(data, data + t.numel());
}

// Runs `fn` and returns the code of the paddle::Error it throws.
template <typename Fn>
ErrorCode ErrorOf(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.code();
  }
  ADD_FAILURE() << "no paddle::Error was thrown";
  return ErrorCode::kInternal;
}

template <typename Fn>
std::string MessageOf(Fn&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// ---------------------------------------------------------------- views

TEST_F(ManipulationTest, ViewsShareTheInputBuffer) {
  Tensor x = Iota({2, 3, 1});
  Tensor r = ops::reshape(x, {3, -1});
  Tensor s = ops::squeeze(x, {});
  Tensor u = ops::unsqueeze(x, {0});
  Tensor f = ops::flatten(x, 0, -1);
  EXPECT_EQ(r.dims(), DDim({3, 2}));
  EXPECT_EQ(s.dims(), DDim({2, 3}));
  EXPECT_EQ(u.dims(), DDim({1, 2, 3, 1}));
  EXPECT_EQ(f.dims(), DDim({6}));
  for (const Tensor* view : {&r, &s, &u, &f}) {
    EXPECT_TRUE(view->dense().SharesBufferWith(x.dense()));
    EXPECT_EQ(view->dense().data<float>(), x.dense().data<float>());
  }
  x.dense().data<float>()[4] = 40;  // writes through x are seen by every view
  EXPECT_EQ(Values(r), (std::vector<float>{0, 1, 2, 3, 40, 5}));
  EXPECT_EQ(Values(f)[4], 40);
}

// ---------------------------------------------------------------- transpose

// The reference: out[i] = x[source index of i], computed one element at a time.
std::vector<float> NaiveTranspose(const std::vector<float>& x, const std::vector<int64_t>& dims,
                                  const std::vector<int32_t>& perm) {
  int rank = static_cast<int>(dims.size());
  std::vector<int64_t> in_strides = ContiguousStrides(DDim(dims));
  std::vector<int64_t> out_dims(rank);
  for (int i = 0; i < rank; ++i) out_dims[i] = dims[perm[i]];
  std::vector<float> out(x.size());
  for (size_t flat = 0; flat < out.size(); ++flat) {
    int64_t rest = static_cast<int64_t>(flat), src = 0;
    for (int d = rank - 1; d >= 0; --d) {
      src += (rest % out_dims[d]) * in_strides[perm[d]];
      rest /= out_dims[d];
    }
    out[flat] = x[src];
  }
  return out;
}

TEST_F(ManipulationTest, Transpose2D) {
  Tensor out = ops::transpose(Iota({2, 3}), {1, 0});
  EXPECT_EQ(out.dims(), DDim({3, 2}));
  EXPECT_EQ(Values(out), (std::vector<float>{0, 3, 1, 4, 2, 5}));
}

TEST_F(ManipulationTest, TransposeMatchesTheReferenceForManyPermutations) {
  struct Case {
    std::vector<int64_t> dims;
    std::vector<int32_t> perm;
  };
  std::vector<Case> cases = {
      {{67, 131}, {1, 0}},             // several tiles with ragged edges
      {{2, 3, 4}, {2, 0, 1}},          // the general tiled path with a batch dim
      {{2, 3, 4}, {1, 0, 2}},          // innermost dim kept: row copies
      {{2, 3, 4, 5}, {0, 2, 3, 1}},    // NCHW -> NHWC coalesces to 3 dims
      {{2, 1, 3, 1}, {3, 2, 1, 0}},    // size-1 dims dropped
      {{2, 3, 4}, {0, 1, 2}},          // identity: one memcpy
      {{3, 4, 5, 6}, {-1, 0, -2, 1}},  // negative perm entries
      {{40, 50, 60}, {2, 1, 0}},       // large enough to run on several threads
  };
  for (const Case& c : cases) {
    Tensor x = Iota(c.dims);
    Tensor out = ops::transpose(x, c.perm);
    std::vector<int32_t> perm = c.perm;
    for (int32_t& p : perm) p = p < 0 ? p + static_cast<int32_t>(c.dims.size()) : p;
    EXPECT_EQ(Values(out), NaiveTranspose(Values(x), c.dims, perm))
        << DDim(c.dims).ToString() << " perm "
        << DDim(std::vector<int64_t>(perm.begin(), perm.end())).ToString();
  }
}

TEST_F(ManipulationTest, TransposeOtherDtypes) {
  Tensor x = Make<int64_t>({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(Values<int64_t>(ops::transpose(x, {1, 0})), (std::vector<int64_t>{1, 3, 2, 4}));
  Tensor b = Make<bool>({1, 3}, {true, false, true});
  Tensor bt = ops::transpose(b, {1, 0});
  EXPECT_EQ(bt.dims(), DDim({3, 1}));
  EXPECT_EQ(Values<bool>(bt), (std::vector<bool>{true, false, true}));
}

// ---------------------------------------------------------------- concat, split, stack

TEST_F(ManipulationTest, ConcatAlongEachAxis) {
  Tensor a = Iota({2, 2});
  Tensor b = Make<float>({2, 1}, {10, 11});
  Tensor c1 = ops::concat({a, b}, 1);
  EXPECT_EQ(c1.dims(), DDim({2, 3}));
  EXPECT_EQ(Values(c1), (std::vector<float>{0, 1, 10, 2, 3, 11}));
  Tensor c0 = ops::concat({a, Make<float>({1, 2}, {7, 8})}, -2);
  EXPECT_EQ(Values(c0), (std::vector<float>{0, 1, 2, 3, 7, 8}));
  Tensor with_empty = ops::concat({a, Make<float>({2, 0}, {})}, 1);
  EXPECT_EQ(Values(with_empty), Values(a));
}

TEST_F(ManipulationTest, SplitBySectionsAndIntoEqualParts) {
  Tensor x = Iota({2, 4});
  std::vector<Tensor> parts = ops::split(x, {1, -1}, 1);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].dims(), DDim({2, 1}));
  EXPECT_EQ(Values(parts[0]), (std::vector<float>{0, 4}));
  EXPECT_EQ(Values(parts[1]), (std::vector<float>{1, 2, 3, 5, 6, 7}));
  std::vector<Tensor> halves = ops::split(x, {2}, 0);
  ASSERT_EQ(halves.size(), 2u);
  EXPECT_EQ(Values(halves[1]), (std::vector<float>{4, 5, 6, 7}));
  // split then concat is the identity
  EXPECT_EQ(Values(ops::concat(parts, 1)), Values(x));
}

TEST_F(ManipulationTest, StackInsertsANewAxis) {
  Tensor a = Iota({2, 2});
  Tensor b = Make<float>({2, 2}, {10, 11, 12, 13});
  Tensor s0 = ops::stack({a, b}, 0);
  EXPECT_EQ(s0.dims(), DDim({2, 2, 2}));
  EXPECT_EQ(Values(s0), (std::vector<float>{0, 1, 2, 3, 10, 11, 12, 13}));
  Tensor s1 = ops::stack({a, b}, 1);
  EXPECT_EQ(Values(s1), (std::vector<float>{0, 1, 10, 11, 2, 3, 12, 13}));
  Tensor last = ops::stack({a, b}, -1);
  EXPECT_EQ(last.dims(), DDim({2, 2, 2}));
  EXPECT_EQ(Values(last), (std::vector<float>{0, 10, 1, 11, 2, 12, 3, 13}));
}

// ---------------------------------------------------------------- expand

TEST_F(ManipulationTest, ExpandBroadcastsToTheShape) {
  Tensor x = Make<float>({3, 1}, {1, 2, 3});
  Tensor out = ops::expand(x, {2, -1, 2});
  EXPECT_EQ(out.dims(), DDim({2, 3, 2}));
  EXPECT_EQ(Values(out), (std::vector<float>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  Tensor row = ops::expand(Make<int32_t>({3}, {4, 5, 6}), {2, 3});
  EXPECT_EQ(Values<int32_t>(row), (std::vector<int32_t>{4, 5, 6, 4, 5, 6}));
}

// ---------------------------------------------------------------- slice, strided_slice, set_value

TEST_F(ManipulationTest, SliceClampsAndDecreasesAxes) {
  Tensor x = Iota({3, 4});
  Tensor out = ops::slice(x, {0, 1}, {1, -3}, {100, 3});
  EXPECT_EQ(out.dims(), DDim({2, 2}));
  EXPECT_EQ(Values(out), (std::vector<float>{5, 6, 9, 10}));
  Tensor row = ops::slice(x, {0}, {-1}, {3}, {0});
  EXPECT_EQ(row.dims(), DDim({4}));
  EXPECT_EQ(Values(row), (std::vector<float>{8, 9, 10, 11}));
  EXPECT_EQ(ops::slice(x, {1}, {3}, {1}).numel(), 0);
}

TEST_F(ManipulationTest, StridedSliceWithNegativeStrides) {
  Tensor x = Iota({3, 5});
  Tensor out = ops::strided_slice(x, {0, 1}, {-1, 0}, {-4, 5}, {-1, 2});
  EXPECT_EQ(out.dims(), DDim({3, 3}));
  EXPECT_EQ(Values(out), (std::vector<float>{10, 12, 14, 5, 7, 9, 0, 2, 4}));
  Tensor reversed = ops::strided_slice(Iota({5}), {0}, {4}, {-100}, {-2});
  EXPECT_EQ(Values(reversed), (std::vector<float>{4, 2, 0}));
}

TEST_F(ManipulationTest, SetValueBroadcastsTheValues) {
  Tensor x = Iota({3, 4});
  Tensor v = Make<float>({2}, {-1, -2});
  // x[0:3:2, 1:3] = [-1, -2]
  Tensor out = ops::set_value_with_tensor(x, v, {0, 1}, {3, 3}, {2, 1}, {0, 1});
  EXPECT_EQ(Values(out), (std::vector<float>{0, -1, -2, 3, 4, 5, 6, 7, 8, -1, -2, 11}));
  EXPECT_FALSE(out.dense().SharesBufferWith(x.dense()));
  EXPECT_EQ(Values(x)[1], 1);  // the out-of-place op leaves x alone
  // A 0-d value fills the region; negative steps walk backwards.
  Tensor scalar = Make<float>({}, {9});
  Tensor back = ops::set_value_with_tensor(Iota({5}), scalar, {4}, {0}, {-2}, {0});
  EXPECT_EQ(Values(back), (std::vector<float>{0, 1, 9, 3, 9}));
}

TEST_F(ManipulationTest, SetValueInPlaceWritesIntoTheInput) {
  Tensor x = Iota({2, 3});
  const float* before = x.dense().data<float>();
  Tensor v = Make<float>({2, 1}, {7, 8});
  ops::OpCall call;
  call.inputs = {{x}, {v}};
  call.attrs = {Attribute(std::vector<int64_t>{2}), Attribute(std::vector<int64_t>{3}),
                Attribute(std::vector<int64_t>{1}), Attribute(std::vector<int64_t>{1})};
  ops::OpResult result =
      imperative::EagerDispatchInplace(ops::GetOp("set_value_with_tensor"), &call);
  EXPECT_EQ(result[0][0].impl(), x.impl());
  EXPECT_EQ(x.dense().data<float>(), before);
  EXPECT_EQ(Values(x), (std::vector<float>{0, 1, 7, 3, 4, 8}));
}

// ---------------------------------------------------------------- gather family

TEST_F(ManipulationTest, GatherAlongAnAxis) {
  Tensor x = Iota({3, 2});
  Tensor rows = ops::gather(x, Make<int64_t>({3}, {2, 0, 2}), 0);
  EXPECT_EQ(Values(rows), (std::vector<float>{4, 5, 0, 1, 4, 5}));
  Tensor cols = ops::gather(x, Make<int32_t>({1}, {1}), 1);
  EXPECT_EQ(cols.dims(), DDim({3, 1}));
  EXPECT_EQ(Values(cols), (std::vector<float>{1, 3, 5}));
  Tensor one = ops::gather(x, Make<int32_t>({}, {1}), 0);  // a 0-d index drops the axis
  EXPECT_EQ(one.dims(), DDim({2}));
  EXPECT_EQ(Values(one), (std::vector<float>{2, 3}));
}

TEST_F(ManipulationTest, GatherRejectsOutOfRangeAndNegativeIndices) {
  Tensor x = Iota({3, 2});
  EXPECT_EQ(ErrorOf([&] {
              ops::gather(x, Make<int64_t>({2}, {0, 3}), 0);
            }),
            ErrorCode::kOutOfRange);
  EXPECT_EQ(ErrorOf([&] { ops::gather(x, Make<int32_t>({1}, {-1}), 0); }), ErrorCode::kOutOfRange);
  std::string message = MessageOf([&] { ops::gather(x, Make<int64_t>({2}, {0, 3}), 0); });
  EXPECT_NE(message.find("'index'"), std::string::npos) << message;
  EXPECT_NE(message.find("holds 3 at position 1"), std::string::npos) << message;
  EXPECT_NE(message.find("[0, 3)"), std::string::npos) << message;
}

TEST_F(ManipulationTest, IndexSelect) {
  Tensor x = Iota({2, 3});
  Tensor out = ops::index_select(x, Make<int64_t>({4}, {2, 0, 2, 1}), 1);
  EXPECT_EQ(out.dims(), DDim({2, 4}));
  EXPECT_EQ(Values(out), (std::vector<float>{2, 0, 2, 1, 5, 3, 5, 4}));
  EXPECT_EQ(ErrorOf([&] { ops::index_select(x, Make<int32_t>({1}, {-1}), 1); }),
            ErrorCode::kOutOfRange);
  EXPECT_EQ(ErrorOf([&] { ops::index_select(x, Make<int32_t>({1}, {3}), -1); }),
            ErrorCode::kOutOfRange);
}

TEST_F(ManipulationTest, IndexAddAccumulatesRepeatedIndices) {
  Tensor x = Make<float>({3, 2}, {0, 0, 0, 0, 0, 0});
  Tensor add = Make<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor out = ops::index_add(x, Make<int32_t>({3}, {2, 0, 2}), add, 0);
  EXPECT_EQ(Values(out), (std::vector<float>{3, 4, 0, 0, 6, 8}));
  EXPECT_EQ(Values(x), (std::vector<float>(6, 0)));  // x is not modified
  Tensor cols = ops::index_add(Iota({2, 2}), Make<int64_t>({2}, {1, 1}),
                               Make<float>({2, 2}, {10, 20, 30, 40}), 1);
  EXPECT_EQ(Values(cols), (std::vector<float>{0, 31, 2, 73}));
  EXPECT_EQ(ErrorOf([&] {
              ops::index_add(x, Make<int64_t>({3}, {0, 1, 3}), add, 0);
            }),
            ErrorCode::kOutOfRange);
}

TEST_F(ManipulationTest, GatherNd) {
  Tensor x = Iota({2, 3, 2});
  Tensor points = ops::gather_nd(x, Make<int64_t>({2, 3}, {1, 2, 1, 0, 1, 0}));
  EXPECT_EQ(points.dims(), DDim({2}));
  EXPECT_EQ(Values(points), (std::vector<float>{11, 2}));
  Tensor rows = ops::gather_nd(x, Make<int32_t>({1, 2}, {1, 0}));
  EXPECT_EQ(rows.dims(), DDim({1, 2}));
  EXPECT_EQ(Values(rows), (std::vector<float>{6, 7}));
  EXPECT_EQ(ErrorOf([&] {
              ops::gather_nd(x, Make<int64_t>({1, 2}, {0, 3}));
            }),
            ErrorCode::kOutOfRange);
  EXPECT_EQ(ErrorOf([&] {
              ops::gather_nd(x, Make<int64_t>({1, 2}, {-1, 0}));
            }),
            ErrorCode::kOutOfRange);
}

TEST_F(ManipulationTest, ScatterNdAddAccumulatesRepeatedIndices) {
  Tensor x = Make<float>({3, 2}, {1, 1, 1, 1, 1, 1});
  Tensor index = Make<int64_t>({3, 1}, {2, 0, 2});
  Tensor updates = Make<float>({3, 2}, {1, 2, 3, 4, 5, 6});
  Tensor out = ops::scatter_nd_add(x, index, updates);
  EXPECT_EQ(Values(out), (std::vector<float>{4, 5, 1, 1, 7, 9}));
  Tensor points =
      ops::scatter_nd_add(Make<int32_t>({2, 2}, {0, 0, 0, 0}), Make<int32_t>({2, 2}, {1, 1, 1, 1}),
                          Make<int32_t>({2}, {5, 6}));
  EXPECT_EQ(Values<int32_t>(points), (std::vector<int32_t>{0, 0, 0, 11}));
  EXPECT_EQ(ErrorOf([&] {
              ops::scatter_nd_add(x, Make<int64_t>({3, 1}, {0, 3, 1}), updates);
            }),
            ErrorCode::kOutOfRange);
}

// ---------------------------------------------------------------- masked ops and nonzero

TEST_F(ManipulationTest, MaskedSelectBroadcastsTheMask) {
  Tensor x = Iota({2, 3});
  Tensor mask = Make<bool>({3}, {true, false, true});
  Tensor out = ops::masked_select(x, mask);
  EXPECT_EQ(out.dims(), DDim({4}));
  EXPECT_EQ(Values(out), (std::vector<float>{0, 2, 3, 5}));
  // x broadcast against a larger mask
  Tensor column = Make<float>({2, 1}, {1, 2});
  Tensor grid = Make<bool>({2, 2}, {false, true, true, true});
  EXPECT_EQ(Values(ops::masked_select(column, grid)), (std::vector<float>{1, 2, 2}));
  EXPECT_EQ(ops::masked_select(x, Make<bool>({1}, {false})).numel(), 0);
}

TEST_F(ManipulationTest, MaskedSelectKeepsRowMajorOrderOnManyThreads) {
  int64_t n = 300001;
  std::vector<float> values(n);
  std::vector<bool> mask(n);
  std::vector<float> expected;
  for (int64_t i = 0; i < n; ++i) {
    values[i] = static_cast<float>(i);
    mask[i] = i % 7 == 3 || i % 11 == 0;
    if (mask[i]) expected.push_back(values[i]);
  }
  Tensor out = ops::masked_select(Make<float>({n}, values), Make<bool>({n}, mask));
  EXPECT_EQ(Values(out), expected);
}

TEST_F(ManipulationTest, MaskedScatterWritesConsecutiveValues) {
  Tensor x = Make<float>({2, 2}, {0, 0, 0, 0});
  Tensor mask = Make<bool>({2}, {false, true});
  Tensor value = Make<float>({3}, {5, 6, 7});
  Tensor out = ops::masked_scatter(x, mask, value);
  EXPECT_EQ(Values(out), (std::vector<float>{0, 5, 0, 6}));
  Tensor all = Make<bool>({2, 2}, {true, true, true, false});
  EXPECT_EQ(Values(ops::masked_scatter(x, all, value)), (std::vector<float>{5, 6, 7, 0}));
  Tensor too_many = Make<bool>({1}, {true});
  EXPECT_EQ(ErrorOf([&] { ops::masked_scatter(x, too_many, value); }), ErrorCode::kInvalidArgument);
}

TEST_F(ManipulationTest, NonZeroListsCoordinates) {
  Tensor x = Make<float>({2, 3}, {0, 1.5f, 0, -2, 0, 0});
  Tensor out = ops::nonzero(x);
  EXPECT_EQ(out.dtype(), DataType::INT64);
  EXPECT_EQ(out.dims(), DDim({2, 2}));
  EXPECT_EQ(Values<int64_t>(out), (std::vector<int64_t>{0, 1, 1, 0}));
  Tensor b = ops::nonzero(Make<bool>({3}, {true, false, true}));
  EXPECT_EQ(b.dims(), DDim({2, 1}));
  EXPECT_EQ(Values<int64_t>(b), (std::vector<int64_t>{0, 2}));
  Tensor none = ops::nonzero(Make<int32_t>({2, 2}, {0, 0, 0, 0}));
  EXPECT_EQ(none.dims(), DDim({0, 2}));
}

TEST_F(ManipulationTest, NonZeroOnManyThreads) {
  int64_t rows = 1000, cols = 301;
  std::vector<int32_t> values(rows * cols, 0);
  std::vector<int64_t> expected;
  for (int64_t i = 0; i < rows * cols; ++i) {
    if (i % 13 == 5) {
      values[i] = 1;
      expected.push_back(i / cols);
      expected.push_back(i % cols);
    }
  }
  Tensor out = ops::nonzero(Make<int32_t>({rows, cols}, values));
  EXPECT_EQ(out.dims(), DDim({static_cast<int64_t>(expected.size() / 2), 2}));
  EXPECT_EQ(Values<int64_t>(out), expected);
}

// ---------------------------------------------------------------- edge cases and large inputs

TEST_F(ManipulationTest, EmptyTensorsGiveEmptyResults) {
  Tensor empty = Make<float>({0, 3}, {});
  EXPECT_EQ(ops::transpose(empty, {1, 0}).dims(), DDim({3, 0}));
  EXPECT_EQ(ops::expand(empty, {2, 0, 3}).numel(), 0);
  EXPECT_EQ(ops::concat({empty, empty}, 0).dims(), DDim({0, 3}));
  EXPECT_EQ(ops::gather(Iota({2, 3}), Make<int64_t>({0}, {}), 0).dims(), DDim({0, 3}));
  EXPECT_EQ(ops::masked_select(empty, Make<bool>({3}, {true, true, true})).numel(), 0);
  EXPECT_EQ(ops::nonzero(empty).dims(), DDim({0, 2}));
  Tensor unchanged =
      ops::set_value_with_tensor(Iota({3}), Make<float>({}, {5}), {2}, {1}, {1}, {0});
  EXPECT_EQ(Values(unchanged), (std::vector<float>{0, 1, 2}));
}

TEST_F(ManipulationTest, SixteenBitFloatsAccumulate) {
  Tensor x = Make<float16>({2}, {float16(1.0f), float16(2.0f)});
  Tensor add = Make<float16>({3}, {float16(0.5f), float16(0.25f), float16(4.0f)});
  Tensor out = ops::index_add(x, Make<int64_t>({3}, {0, 0, 1}), add, 0);
  std::vector<float16> values = Values<float16>(out);
  EXPECT_EQ(static_cast<float>(values[0]), 1.75f);
  EXPECT_EQ(static_cast<float>(values[1]), 6.0f);
}

TEST_F(ManipulationTest, LargeInputsOnManyThreadsMatchReferences) {
  // index_add with repeated indices over a wide inner dim, split across threads.
  int64_t rows = 8, inner = 20000;
  Tensor zeros = Make<float>({rows, inner}, std::vector<float>(rows * inner, 0.0f));
  std::vector<int64_t> index = {3, 3, 5, 3};
  Tensor add = Make<float>({4, inner}, std::vector<float>(4 * inner, 1.0f));
  std::vector<float> sums = Values(ops::index_add(zeros, Make<int64_t>({4}, index), add, 0));
  EXPECT_EQ(sums[3 * inner + 12345], 3.0f);
  EXPECT_EQ(sums[5 * inner + inner - 1], 1.0f);
  EXPECT_EQ(sums[0], 0.0f);
  // scatter_nd_add with repeated index entries over wide slices.
  Tensor scattered = ops::scatter_nd_add(zeros, Make<int32_t>({3, 1}, {7, 7, 0}),
                                         Make<float>({3, inner}, std::vector<float>(3 * inner, 2)));
  std::vector<float> s = Values(scattered);
  EXPECT_EQ(s[7 * inner + 9999], 4.0f);
  EXPECT_EQ(s[0 * inner + 9999], 2.0f);
  EXPECT_EQ(s[1 * inner], 0.0f);
  // set_value on a large strided region, with values broadcast along the rows.
  Tensor x = Iota({300, 400});
  std::vector<float> row(200);
  std::iota(row.begin(), row.end(), 1000.0f);
  Tensor out =
      ops::set_value_with_tensor(x, Make<float>({200}, row), {1, 399}, {300, 0}, {2, -2}, {0, 1});
  std::vector<float> o = Values(out);
  for (int64_t i = 0; i < 300; ++i) {
    for (int64_t j = 0; j < 400; ++j) {
      float expected = (i % 2 == 1 && j % 2 == 1) ? 1000.0f + (399 - j) / 2 : i * 400 + j;
      ASSERT_EQ(o[i * 400 + j], expected) << i << ", " << j;
    }
  }
  // The strided slice of the same region reads back the values.
  Tensor back = ops::strided_slice(out, {0, 1}, {1, 399}, {300, 0}, {2, -2});
  EXPECT_EQ(back.dims(), DDim({150, 200}));
  EXPECT_EQ(Values(back), Values(ops::expand(Make<float>({200}, row), {150, 200})));
}

}  // namespace paddle
