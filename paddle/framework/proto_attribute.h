// Conversion between op-schema Attributes and framework.proto attributes. Writing follows what
// PaddlePaddle's op definitions declare (float for floating scalars, int where values fit);
// reading accepts any numeric encoding of a value, since files from different Paddle versions
// encode the same attribute differently.
#pragma once

#include <optional>
#include <string>

#include "paddle/core/attribute.h"
#include "paddle/framework/op_desc.h"

namespace paddle::framework {

// Empty for attributes a program does not store (the place an op runs on).
std::optional<ProtoAttr> ToProtoAttr(const std::string& name, const Attribute& value);
// Converts to the Attribute alternative `type_index` (see paddle/core/attribute.h). Throws
// InvalidArgument naming `op_type` and the attribute when the stored value does not convert.
Attribute FromProtoAttr(const ProtoAttr& attr, int type_index, const std::string& op_type);

}  // namespace paddle::framework
