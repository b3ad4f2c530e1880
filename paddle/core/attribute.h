// Attribute: the value of one op attribute. The alternatives are exactly the attribute types the
// op schema (paddle/ops/yaml) allows; kernels take them as typed parameters.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "paddle/common/data_type.h"
#include "paddle/common/place.h"
#include "paddle/core/scalar.h"

namespace paddle {

using Attribute =
    std::variant<bool, int32_t, int64_t, float, double, std::string, std::vector<int32_t>,
                 std::vector<int64_t>, std::vector<float>, std::vector<double>,
                 std::vector<std::string>, Scalar, DataType, Place>;

// The position of alternative T in Attribute: the value OpAttr::type_index holds for it.
template <typename T, size_t I = 0>
constexpr int AttributeIndex() {
  static_assert(I < std::variant_size_v<Attribute>, "not an Attribute alternative");
  if constexpr (std::is_same_v<std::variant_alternative_t<I, Attribute>, T>) {
    return static_cast<int>(I);
  } else {
    return AttributeIndex<T, I + 1>();
  }
}

// "int", "int64_t[]", ...: the schema's spelling of the alternative held.
const char* AttributeTypeName(const Attribute& attr);
std::string AttributeToString(const Attribute& attr);

}  // namespace paddle
