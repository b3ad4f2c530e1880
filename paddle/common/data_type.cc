#include "paddle/common/data_type.h"

#include <unordered_map>

#include "paddle/common/errors.h"

namespace paddle {

size_t SizeOf(DataType dtype) {
  switch (dtype) {
    case DataType::BOOL:
    case DataType::INT8:
    case DataType::UINT8:
      return 1;
    case DataType::INT16:
    case DataType::FLOAT16:
    case DataType::BFLOAT16:
      return 2;
    case DataType::INT32:
    case DataType::FLOAT32:
      return 4;
    case DataType::INT64:
    case DataType::FLOAT64:
    case DataType::COMPLEX64:
      return 8;
    case DataType::COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

const char* DataTypeName(DataType dtype) {
  switch (dtype) {
    case DataType::UNDEFINED:
      return "undefined";
    case DataType::BOOL:
      return "bool";
    case DataType::INT8:
      return "int8";
    case DataType::UINT8:
      return "uint8";
    case DataType::INT16:
      return "int16";
    case DataType::INT32:
      return "int32";
    case DataType::INT64:
      return "int64";
    case DataType::FLOAT16:
      return "float16";
    case DataType::BFLOAT16:
      return "bfloat16";
    case DataType::FLOAT32:
      return "float32";
    case DataType::FLOAT64:
      return "float64";
    case DataType::COMPLEX64:
      return "complex64";
    case DataType::COMPLEX128:
      return "complex128";
    default:
      return "unknown";
  }
}

DataType DataTypeFromName(const std::string& name) {
  static const std::unordered_map<std::string, DataType> kNames = {
      {"bool", DataType::BOOL},           {"int8", DataType::INT8},
      {"uint8", DataType::UINT8},         {"int16", DataType::INT16},
      {"int32", DataType::INT32},         {"int64", DataType::INT64},
      {"int", DataType::INT64},           {"float16", DataType::FLOAT16},
      {"half", DataType::FLOAT16},        {"bfloat16", DataType::BFLOAT16},
      {"float32", DataType::FLOAT32},     {"float", DataType::FLOAT32},
      {"float64", DataType::FLOAT64},     {"double", DataType::FLOAT64},
      {"complex64", DataType::COMPLEX64}, {"complex128", DataType::COMPLEX128},
  };
  auto it = kNames.find(name);
  PD_CHECK(it != kNames.end(),
           errors::InvalidArgument("unknown data type '", name,
                                   "', expected one of bool, int8, uint8, int16, int32, int64, "
                                   "float16, bfloat16, float32, float64, complex64, complex128"));
  return it->second;
}

bool IsFloating(DataType dtype) {
  return dtype == DataType::FLOAT16 || dtype == DataType::BFLOAT16 || dtype == DataType::FLOAT32 ||
         dtype == DataType::FLOAT64;
}

bool IsInteger(DataType dtype) {
  return dtype == DataType::INT8 || dtype == DataType::UINT8 || dtype == DataType::INT16 ||
         dtype == DataType::INT32 || dtype == DataType::INT64;
}

bool IsComplex(DataType dtype) {
  return dtype == DataType::COMPLEX64 || dtype == DataType::COMPLEX128;
}

DataType ToRealType(DataType dtype) {
  if (dtype == DataType::COMPLEX64) return DataType::FLOAT32;
  if (dtype == DataType::COMPLEX128) return DataType::FLOAT64;
  return dtype;
}

DataType ToComplexType(DataType dtype) {
  if (dtype == DataType::FLOAT32) return DataType::COMPLEX64;
  if (dtype == DataType::FLOAT64) return DataType::COMPLEX128;
  PD_THROW(errors::InvalidType("no complex data type has parts of type ", DataTypeName(dtype),
                               "; expected float32 or float64"));
}

DataType PromoteTypes(DataType a, DataType b) {
  if (a == b) return a;
  if (a == DataType::BOOL) return b;
  if (b == DataType::BOOL) return a;
  if (IsComplex(a) || IsComplex(b)) {
    // The parts take the promotion of both sides' real types (complex64 + float64 -> complex128).
    DataType parts = PromoteTypes(ToRealType(a), ToRealType(b));
    return parts == DataType::FLOAT64 ? DataType::COMPLEX128 : DataType::COMPLEX64;
  }
  bool fa = IsFloating(a), fb = IsFloating(b);
  if (fa != fb) return fa ? a : b;
  if (fa) {
    if ((a == DataType::FLOAT16 && b == DataType::BFLOAT16) ||
        (a == DataType::BFLOAT16 && b == DataType::FLOAT16)) {
      return DataType::FLOAT32;
    }
    return SizeOf(a) >= SizeOf(b) ? a : b;
  }
  // Both integers: uint8 with a signed type of the same width widens.
  if (a == DataType::UINT8 && b == DataType::INT8) return DataType::INT16;
  if (b == DataType::UINT8 && a == DataType::INT8) return DataType::INT16;
  return SizeOf(a) >= SizeOf(b) ? a : b;
}

}  // namespace paddle
