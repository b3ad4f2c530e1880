#pragma once

#include "paddle/common/errors.h"

namespace paddle {

template <typename Fn>
void VisitDataType(DataType dtype, Fn&& fn) {
  switch (dtype) {
    case DataType::BOOL:
      return fn(bool{});
    case DataType::INT8:
      return fn(int8_t{});
    case DataType::UINT8:
      return fn(uint8_t{});
    case DataType::INT16:
      return fn(int16_t{});
    case DataType::INT32:
      return fn(int32_t{});
    case DataType::INT64:
      return fn(int64_t{});
    case DataType::FLOAT16:
      return fn(float16{});
    case DataType::BFLOAT16:
      return fn(bfloat16{});
    case DataType::FLOAT32:
      return fn(float{});
    case DataType::FLOAT64:
      return fn(double{});
    case DataType::COMPLEX64:
      return fn(complex64{});
    case DataType::COMPLEX128:
      return fn(complex128{});
    default:
      PD_THROW(errors::Unimplemented("data type ", DataTypeName(dtype), " is not supported here"));
  }
}

}  // namespace paddle
