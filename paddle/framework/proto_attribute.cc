#include "paddle/framework/proto_attribute.h"

#include <limits>

#include "paddle/common/errors.h"
#include "paddle/framework/proto_data_type.h"

namespace paddle::framework {

namespace {

bool FitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
}

ProtoAttr Named(const std::string& name, proto::AttrType type) {
  ProtoAttr attr;
  attr.set_name(name);
  attr.set_type(type);
  return attr;
}

[[noreturn]] void Mismatch(const ProtoAttr& attr, const char* expected, const std::string& op) {
  PD_THROW(errors::InvalidArgument(op, ": attribute '", attr.name(), "' should hold ", expected,
                                   ", but the program stores a value of type ",
                                   proto::AttrType_Name(attr.type())));
}

// A single number, whatever its encoding.
double NumberOf(const ProtoAttr& attr, const char* expected, const std::string& op) {
  switch (attr.type()) {
    case proto::INT:
      return attr.i();
    case proto::LONG:
      return static_cast<double>(attr.l());
    case proto::FLOAT:
      return attr.f();
    case proto::FLOAT64:
      return attr.float64();
    case proto::BOOLEAN:
      return attr.b() ? 1 : 0;
    case proto::SCALAR:
      if (attr.scalar().type() == proto::Scalar::LONG)
        return static_cast<double>(attr.scalar().i());
      if (attr.scalar().type() == proto::Scalar::BOOLEAN) return attr.scalar().b();
      return attr.scalar().r();
    default:
      Mismatch(attr, expected, op);
  }
}

int64_t IntegerOf(const ProtoAttr& attr, const char* expected, const std::string& op) {
  if (attr.type() == proto::LONG) return attr.l();
  if (attr.type() == proto::SCALAR && attr.scalar().type() == proto::Scalar::LONG) {
    return attr.scalar().i();
  }
  return static_cast<int64_t>(NumberOf(attr, expected, op));
}

template <typename T>
std::vector<T> ListOf(const ProtoAttr& attr, const char* expected, const std::string& op) {
  switch (attr.type()) {
    case proto::INTS:
      return {attr.ints().begin(), attr.ints().end()};
    case proto::LONGS:
      return {attr.longs().begin(), attr.longs().end()};
    case proto::FLOATS:
      return {attr.floats().begin(), attr.floats().end()};
    case proto::FLOAT64S:
      return {attr.float64s().begin(), attr.float64s().end()};
    case proto::BOOLEANS:
      return {attr.bools().begin(), attr.bools().end()};
    default:
      // A single number where a list is expected is a list of one.
      return {static_cast<T>(NumberOf(attr, expected, op))};
  }
}

}  // namespace

std::optional<ProtoAttr> ToProtoAttr(const std::string& name, const Attribute& value) {
  return std::visit(
      [&](const auto& v) -> std::optional<ProtoAttr> {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          ProtoAttr a = Named(name, proto::BOOLEAN);
          a.set_b(v);
          return a;
        } else if constexpr (std::is_same_v<T, int32_t>) {
          ProtoAttr a = Named(name, proto::INT);
          a.set_i(v);
          return a;
        } else if constexpr (std::is_same_v<T, int64_t>) {
          ProtoAttr a = Named(name, FitsInt32(v) ? proto::INT : proto::LONG);
          if (FitsInt32(v)) {
            a.set_i(static_cast<int32_t>(v));
          } else {
            a.set_l(v);
          }
          return a;
        } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          // Paddle's op definitions declare floating attributes as float.
          ProtoAttr a = Named(name, proto::FLOAT);
          a.set_f(static_cast<float>(v));
          return a;
        } else if constexpr (std::is_same_v<T, std::string>) {
          ProtoAttr a = Named(name, proto::STRING);
          a.set_s(v);
          return a;
        } else if constexpr (std::is_same_v<T, std::vector<int32_t>>) {
          ProtoAttr a = Named(name, proto::INTS);
          for (int32_t x : v) a.add_ints(x);
          return a;
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
          bool fits = std::all_of(v.begin(), v.end(), FitsInt32);
          ProtoAttr a = Named(name, fits ? proto::INTS : proto::LONGS);
          for (int64_t x : v) {
            if (fits) {
              a.add_ints(static_cast<int32_t>(x));
            } else {
              a.add_longs(x);
            }
          }
          return a;
        } else if constexpr (std::is_same_v<T, std::vector<float>>) {
          ProtoAttr a = Named(name, proto::FLOATS);
          for (float x : v) a.add_floats(x);
          return a;
        } else if constexpr (std::is_same_v<T, std::vector<double>>) {
          ProtoAttr a = Named(name, proto::FLOAT64S);
          for (double x : v) a.add_float64s(x);
          return a;
        } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          ProtoAttr a = Named(name, proto::STRINGS);
          for (const std::string& x : v) a.add_strings(x);
          return a;
        } else if constexpr (std::is_same_v<T, Scalar>) {
          if (v.dtype() == DataType::BOOL) {
            ProtoAttr a = Named(name, proto::BOOLEAN);
            a.set_b(v.template to<bool>());
            return a;
          }
          ProtoAttr a = Named(name, proto::FLOAT);
          a.set_f(v.template to<float>());
          return a;
        } else if constexpr (std::is_same_v<T, DataType>) {
          // Paddle stores dtypes as VarType numbers, with -1 for "not given".
          ProtoAttr a = Named(name, proto::INT);
          a.set_i(v == DataType::UNDEFINED ? -1 : static_cast<int>(ToProtoDataType(v)));
          return a;
        } else {
          return std::nullopt;  // Place: chosen by the executor, not stored
        }
      },
      value);
}

Attribute FromProtoAttr(const ProtoAttr& attr, int type_index, const std::string& op) {
  switch (type_index) {
    case AttributeIndex<bool>():
      return NumberOf(attr, "a bool", op) != 0;
    case AttributeIndex<int32_t>(): {
      int64_t v = IntegerOf(attr, "an int", op);
      PD_CHECK(FitsInt32(v), errors::InvalidArgument(op, ": attribute '", attr.name(), "' = ", v,
                                                     " does not fit in int32"));
      return static_cast<int32_t>(v);
    }
    case AttributeIndex<int64_t>():
      return IntegerOf(attr, "an int64", op);
    case AttributeIndex<float>():
      return static_cast<float>(NumberOf(attr, "a float", op));
    case AttributeIndex<double>():
      return NumberOf(attr, "a double", op);
    case AttributeIndex<std::string>():
      if (attr.type() != proto::STRING) Mismatch(attr, "a string", op);
      return attr.s();
    case AttributeIndex<std::vector<int32_t>>():
      return ListOf<int32_t>(attr, "a list of int", op);
    case AttributeIndex<std::vector<int64_t>>():
      return ListOf<int64_t>(attr, "a list of int64", op);
    case AttributeIndex<std::vector<float>>():
      return ListOf<float>(attr, "a list of float", op);
    case AttributeIndex<std::vector<double>>():
      return ListOf<double>(attr, "a list of double", op);
    case AttributeIndex<std::vector<std::string>>():
      if (attr.type() != proto::STRINGS) Mismatch(attr, "a list of strings", op);
      return std::vector<std::string>(attr.strings().begin(), attr.strings().end());
    case AttributeIndex<Scalar>():
      switch (attr.type()) {
        case proto::BOOLEAN:
          return Scalar(attr.b());
        case proto::INT:
          return Scalar(static_cast<int64_t>(attr.i()));
        case proto::LONG:
          return Scalar(attr.l());
        case proto::SCALAR:
          if (attr.scalar().type() == proto::Scalar::LONG) return Scalar(attr.scalar().i());
          if (attr.scalar().type() == proto::Scalar::BOOLEAN) return Scalar(attr.scalar().b());
          return Scalar(attr.scalar().r());
        default:
          return Scalar(NumberOf(attr, "a number", op));
      }
    case AttributeIndex<DataType>(): {
      int64_t v = IntegerOf(attr, "a data type", op);
      if (v < 0) return DataType::UNDEFINED;
      return FromProtoDataType(static_cast<proto::VarType::Type>(v));
    }
    case AttributeIndex<Place>():
      return Place();
  }
  PD_THROW(errors::Unimplemented(op, ": attribute '", attr.name(), "' has an unknown type"));
}

}  // namespace paddle::framework
