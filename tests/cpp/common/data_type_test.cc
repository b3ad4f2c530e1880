#include "paddle/common/data_type.h"

#include <gtest/gtest.h>

#include <cmath>

namespace paddle {

TEST(DataTypeTest, SizesAndNames) {
  EXPECT_EQ(SizeOf(DataType::FLOAT32), 4u);
  EXPECT_EQ(SizeOf(DataType::BFLOAT16), 2u);
  EXPECT_EQ(SizeOf(DataType::INT64), 8u);
  EXPECT_STREQ(DataTypeName(DataType::FLOAT16), "float16");
  EXPECT_EQ(DataTypeFromName("float"), DataType::FLOAT32);
  EXPECT_EQ(DataTypeFromName("int64"), DataType::INT64);
  EXPECT_THROW(DataTypeFromName("complex256"), Error);
}

TEST(DataTypeTest, PromotionFollowsPaddle) {
  EXPECT_EQ(PromoteTypes(DataType::INT64, DataType::FLOAT32), DataType::FLOAT32);
  EXPECT_EQ(PromoteTypes(DataType::FLOAT32, DataType::FLOAT64), DataType::FLOAT64);
  EXPECT_EQ(PromoteTypes(DataType::FLOAT16, DataType::BFLOAT16), DataType::FLOAT32);
  EXPECT_EQ(PromoteTypes(DataType::BOOL, DataType::INT32), DataType::INT32);
  EXPECT_EQ(PromoteTypes(DataType::UINT8, DataType::INT8), DataType::INT16);
  EXPECT_EQ(PromoteTypes(DataType::INT32, DataType::INT64), DataType::INT64);
}

TEST(DataTypeTest, ComplexTypes) {
  EXPECT_EQ(SizeOf(DataType::COMPLEX64), 8u);
  EXPECT_EQ(SizeOf(DataType::COMPLEX128), 16u);
  EXPECT_EQ(DataTypeFromName("complex64"), DataType::COMPLEX64);
  EXPECT_STREQ(DataTypeName(DataType::COMPLEX128), "complex128");
  EXPECT_EQ(kDataTypeOf<complex64>, DataType::COMPLEX64);
  EXPECT_TRUE(IsComplex(DataType::COMPLEX128));
  EXPECT_FALSE(IsComplex(DataType::FLOAT64) || IsFloating(DataType::COMPLEX64));
  EXPECT_EQ(ToRealType(DataType::COMPLEX64), DataType::FLOAT32);
  EXPECT_EQ(ToComplexType(DataType::FLOAT64), DataType::COMPLEX128);
  EXPECT_THROW(ToComplexType(DataType::INT32), Error);
}

TEST(DataTypeTest, ComplexPromotionFollowsPaddle) {
  EXPECT_EQ(PromoteTypes(DataType::FLOAT32, DataType::COMPLEX64), DataType::COMPLEX64);
  EXPECT_EQ(PromoteTypes(DataType::FLOAT64, DataType::COMPLEX64), DataType::COMPLEX128);
  EXPECT_EQ(PromoteTypes(DataType::COMPLEX128, DataType::FLOAT16), DataType::COMPLEX128);
  EXPECT_EQ(PromoteTypes(DataType::INT64, DataType::COMPLEX64), DataType::COMPLEX64);
  EXPECT_EQ(PromoteTypes(DataType::BOOL, DataType::COMPLEX64), DataType::COMPLEX64);
  EXPECT_EQ(PromoteTypes(DataType::COMPLEX64, DataType::COMPLEX128), DataType::COMPLEX128);
}

TEST(Float16Test, RoundTripsExactValues) {
  for (float v : {0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f, 5.960464477539063e-08f}) {
    EXPECT_EQ(static_cast<float>(float16(v)), v) << v;
  }
  EXPECT_TRUE(std::isinf(static_cast<float>(float16(1e6f))));
  EXPECT_TRUE(std::isnan(static_cast<float>(float16(NAN))));
  // Round to nearest even: 1 + 2^-11 is halfway between 1 and the next float16.
  EXPECT_EQ(static_cast<float>(float16(1.0f + std::ldexp(1.0f, -11))), 1.0f);
}

TEST(BFloat16Test, KeepsTheExponentRange) {
  EXPECT_EQ(static_cast<float>(bfloat16(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(bfloat16(3.0e38f)), 3.0040553e38f);  // nearest bfloat16
  EXPECT_TRUE(std::isnan(static_cast<float>(bfloat16(NAN))));
}

}  // namespace paddle
