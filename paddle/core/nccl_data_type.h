// The NCCL element type of a tensor's data type, shared by the two users of NCCL: the
// distributed NCCL process group and the ParallelExecutor's all-reduce across GPU places. Only
// files built with WITH_GPU include it.
#pragma once

#include <nccl.h>

#include <optional>

#include "paddle/common/data_type.h"

namespace paddle {

// Empty where NCCL has no type of that width and kind (complex, int16, ...): each caller names
// its operation in the error.
inline std::optional<ncclDataType_t> NcclDataType(DataType dtype) {
  switch (dtype) {
    case DataType::INT8:
      return ncclInt8;
    case DataType::UINT8:
    case DataType::BOOL:
      return ncclUint8;
    case DataType::INT32:
      return ncclInt32;
    case DataType::INT64:
      return ncclInt64;
    case DataType::FLOAT16:
      return ncclFloat16;
    case DataType::BFLOAT16:
      return ncclBfloat16;
    case DataType::FLOAT32:
      return ncclFloat32;
    case DataType::FLOAT64:
      return ncclFloat64;
    default:
      return std::nullopt;
  }
}

}  // namespace paddle
