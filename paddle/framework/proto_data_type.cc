#include "paddle/framework/proto_data_type.h"

#include "paddle/common/errors.h"

namespace paddle::framework {

proto::VarType::Type ToProtoDataType(DataType dtype) {
  switch (dtype) {
    case DataType::BOOL:
      return proto::VarType::BOOL;
    case DataType::INT8:
      return proto::VarType::INT8;
    case DataType::UINT8:
      return proto::VarType::UINT8;
    case DataType::INT16:
      return proto::VarType::INT16;
    case DataType::INT32:
      return proto::VarType::INT32;
    case DataType::INT64:
      return proto::VarType::INT64;
    case DataType::FLOAT16:
      return proto::VarType::FP16;
    case DataType::BFLOAT16:
      return proto::VarType::BF16;
    case DataType::FLOAT32:
      return proto::VarType::FP32;
    case DataType::FLOAT64:
      return proto::VarType::FP64;
    case DataType::COMPLEX64:
      return proto::VarType::COMPLEX64;
    case DataType::COMPLEX128:
      return proto::VarType::COMPLEX128;
    default:
      break;
  }
  PD_THROW(
      errors::InvalidType("data type ", DataTypeName(dtype), " has no framework.proto equivalent"));
}

DataType FromProtoDataType(proto::VarType::Type type) {
  switch (type) {
    case proto::VarType::BOOL:
      return DataType::BOOL;
    case proto::VarType::INT8:
      return DataType::INT8;
    case proto::VarType::UINT8:
      return DataType::UINT8;
    case proto::VarType::INT16:
      return DataType::INT16;
    case proto::VarType::INT32:
      return DataType::INT32;
    case proto::VarType::INT64:
      return DataType::INT64;
    case proto::VarType::FP16:
      return DataType::FLOAT16;
    case proto::VarType::BF16:
      return DataType::BFLOAT16;
    case proto::VarType::FP32:
      return DataType::FLOAT32;
    case proto::VarType::FP64:
      return DataType::FLOAT64;
    case proto::VarType::COMPLEX64:
      return DataType::COMPLEX64;
    case proto::VarType::COMPLEX128:
      return DataType::COMPLEX128;
    default:
      break;
  }
  PD_THROW(errors::InvalidType("framework.proto type ", ProtoTypeName(type),
                               " is not a supported tensor element type"));
}

std::string ProtoTypeName(int type) {
  if (proto::VarType::Type_IsValid(type)) {
    return proto::VarType::Type_Name(static_cast<proto::VarType::Type>(type));
  }
  return std::to_string(type);
}

}  // namespace paddle::framework
