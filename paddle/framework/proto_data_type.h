// The mapping between DataType and the element kinds of framework.proto's VarType.Type, which mixes
// element types and variable kinds in one enum; only the element kinds map to a DataType.
#pragma once

#include "paddle/common/data_type.h"
#include "proto/framework.pb.h"

namespace paddle::framework {

proto::VarType::Type ToProtoDataType(DataType dtype);
// Throws InvalidType when `type` is a variable kind or an element type we do not support.
DataType FromProtoDataType(proto::VarType::Type type);
// The proto name of `type` ("FP32", "DENSE_TENSOR"), or its number when unknown.
std::string ProtoTypeName(int type);

}  // namespace paddle::framework
