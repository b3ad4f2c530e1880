// Finds the schema op for an OpDesc written with Paddle's legacy names, and translates its
// slots and attributes into a schema call.
#pragma once

#include <string>
#include <vector>

#include "paddle/framework/op_desc.h"
#include "paddle/ops/op_schema.h"

namespace paddle::framework {

// Null when no schema op has this legacy type (or when the desc's fixed attributes match none,
// e.g. tril_triu picks tril or triu by its `lower` attribute).
const ops::OpSchema* FindSchemaForOpDesc(const OpDesc& op);
// The schema op whose gradient `op` (type "<legacy type>_grad") is; null when none.
const ops::OpSchema* FindForwardSchemaForGradDesc(const OpDesc& op);

const std::string& LegacyInputSlot(const ops::OpSchema& op, size_t input);
const std::string& LegacyOutputSlot(const ops::OpSchema& op, size_t output);
const std::string& LegacyAttrName(const ops::OpSchema& op, size_t attr);
const std::string& LegacyType(const ops::OpSchema& op);
// Paddle's name for "no variable" in a slot that lists one variable per element.
inline constexpr const char* kEmptyVarName = "@EMPTY@";

std::string GradSlot(const std::string& slot);  // "X" -> "X@GRAD"
std::string GradVarName(const std::string& var);

// The schema attributes of `op`, read from the desc (legacy names) or defaulted. `place` fills
// Place attributes. Errors name `where`.
std::vector<Attribute> SchemaAttrsOf(const ops::OpSchema& schema, const OpDesc& op,
                                     const Place& place, const std::string& where);

}  // namespace paddle::framework
