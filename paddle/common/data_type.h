// DataType: the element types a tensor can hold, and the compile-time mapping to C++ types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "paddle/common/complex.h"
#include "paddle/common/float16.h"

namespace paddle {

enum class DataType : int8_t {
  UNDEFINED = 0,
  BOOL,
  INT8,
  UINT8,
  INT16,
  INT32,
  INT64,
  FLOAT16,
  BFLOAT16,
  FLOAT32,
  FLOAT64,
  COMPLEX64,
  COMPLEX128,
  NUM_DATA_TYPES,
};

size_t SizeOf(DataType dtype);
// Paddle's spelling: "float32", "int64", "bool", ...
const char* DataTypeName(DataType dtype);
// Accepts Paddle and NumPy spellings ("float32", "float", "int64", "int", ...); throws on unknown.
DataType DataTypeFromName(const std::string& name);

bool IsFloating(DataType dtype);
bool IsInteger(DataType dtype);  // bool excluded
bool IsComplex(DataType dtype);
// The dtype of a complex dtype's parts (complex64 -> float32); other dtypes map to themselves.
DataType ToRealType(DataType dtype);
// The complex dtype whose parts are `dtype` (float32 -> complex64, float64 -> complex128); throws
// InvalidType for other dtypes.
DataType ToComplexType(DataType dtype);

// Paddle's type promotion between two tensor dtypes (complex beats float beats int beats bool; the
// wider wins; float16 with bfloat16 gives float32; a complex with a wider float widens:
// complex64 with float64 gives complex128).
DataType PromoteTypes(DataType a, DataType b);

template <typename T>
struct DataTypeOf;
#define PD_DATA_TYPE_OF(T, E)                      \
  template <>                                      \
  struct DataTypeOf<T> {                           \
    static constexpr DataType value = DataType::E; \
  };
PD_DATA_TYPE_OF(bool, BOOL)
PD_DATA_TYPE_OF(int8_t, INT8)
PD_DATA_TYPE_OF(uint8_t, UINT8)
PD_DATA_TYPE_OF(int16_t, INT16)
PD_DATA_TYPE_OF(int32_t, INT32)
PD_DATA_TYPE_OF(int64_t, INT64)
PD_DATA_TYPE_OF(float16, FLOAT16)
PD_DATA_TYPE_OF(bfloat16, BFLOAT16)
PD_DATA_TYPE_OF(float, FLOAT32)
PD_DATA_TYPE_OF(double, FLOAT64)
PD_DATA_TYPE_OF(complex64, COMPLEX64)
PD_DATA_TYPE_OF(complex128, COMPLEX128)
#undef PD_DATA_TYPE_OF

template <typename T>
inline constexpr DataType kDataTypeOf = DataTypeOf<T>::value;

// Calls fn(T{}) with the C++ type of `dtype`; used where a kernel must branch on a runtime dtype
// (cast, fill). Throws Unimplemented for a dtype outside the list.
template <typename Fn>
void VisitDataType(DataType dtype, Fn&& fn);

}  // namespace paddle

#include "paddle/common/data_type_visit.h"
