#include "paddle/framework/legacy_op_map.h"

#include <cstdlib>
#include <unordered_map>

#include "paddle/common/errors.h"
#include "paddle/framework/proto_attribute.h"

namespace paddle::framework {

namespace {

const std::string& Renamed(const std::map<std::string, std::string>& names,
                           const std::string& name) {
  auto it = names.find(name);
  return it == names.end() ? name : it->second;
}

const std::unordered_map<std::string, std::vector<const ops::OpSchema*>>& LegacyIndex() {
  static const auto* index = [] {
    auto* map = new std::unordered_map<std::string, std::vector<const ops::OpSchema*>>();
    for (const ops::OpSchema& op : ops::AllOps()) (*map)[LegacyType(op)].push_back(&op);
    return map;
  }();
  return *index;
}

// Whether the desc's attributes agree with the fixed attributes the schema op writes.
bool ExtraAttrsMatch(const ops::OpSchema& op, const OpDesc& desc) {
  for (const auto& [name, value] : op.legacy.extra_attrs) {
    const ProtoAttr* attr = desc.FindAttr(name);
    if (attr == nullptr) continue;
    if (std::holds_alternative<bool>(value) && attr->type() == proto::BOOLEAN &&
        attr->b() != std::get<bool>(value)) {
      return false;
    }
  }
  return true;
}

const ops::OpSchema* FindByLegacyType(const std::string& type, const OpDesc& desc) {
  const auto& index = LegacyIndex();
  auto it = index.find(type);
  if (it == index.end()) return nullptr;
  for (const ops::OpSchema* op : it->second) {
    if (ExtraAttrsMatch(*op, desc)) return op;
  }
  return nullptr;
}

// fill_constant's exact `str_value`: an integer, or a float in any strtod spelling (inf, nan).
Scalar ScalarFromString(const std::string& text, const std::string& where) {
  char* end = nullptr;
  long long integer = std::strtoll(text.c_str(), &end, 10);
  if (*end == '\0') return Scalar(static_cast<int64_t>(integer));
  double real = std::strtod(text.c_str(), &end);
  PD_CHECK(*end == '\0', errors::InvalidArgument(where, ": attribute 'str_value' = '", text,
                                                 "' is not a number"));
  return Scalar(real);
}

}  // namespace

const std::string& LegacyType(const ops::OpSchema& op) {
  return op.legacy.type.empty() ? op.name : op.legacy.type;
}

const std::string& LegacyInputSlot(const ops::OpSchema& op, size_t input) {
  return Renamed(op.legacy.inputs, op.inputs[input].name);
}

const std::string& LegacyAttrName(const ops::OpSchema& op, size_t attr) {
  return Renamed(op.legacy.attrs, op.attrs[attr].name);
}

const std::string& LegacyOutputSlot(const ops::OpSchema& op, size_t output) {
  return Renamed(op.legacy.outputs, op.outputs[output].name);
}

std::string GradSlot(const std::string& slot) { return slot + "@GRAD"; }
std::string GradVarName(const std::string& var) { return var + "@GRAD"; }

const ops::OpSchema* FindSchemaForOpDesc(const OpDesc& op) {
  // "<forward>_grad" is the gradient desc of <forward>, with the forward's slot and attribute
  // names, even where a kernel-level op of the schema has that name (batch_norm_grad,
  // cumprod_grad); those internal ops are never written into programs under their own name.
  if (FindForwardSchemaForGradDesc(op) != nullptr) return nullptr;
  return FindByLegacyType(op.type(), op);
}

const ops::OpSchema* FindForwardSchemaForGradDesc(const OpDesc& op) {
  static const std::string kSuffix = "_grad";
  const std::string& type = op.type();
  if (type.size() <= kSuffix.size() ||
      type.compare(type.size() - kSuffix.size(), kSuffix.size(), kSuffix) != 0) {
    return nullptr;
  }
  const ops::OpSchema* forward = FindByLegacyType(type.substr(0, type.size() - kSuffix.size()), op);
  return forward != nullptr && forward->backward != nullptr ? forward : nullptr;
}

std::vector<Attribute> SchemaAttrsOf(const ops::OpSchema& schema, const OpDesc& op,
                                     const Place& place, const std::string& where) {
  std::vector<Attribute> attrs;
  attrs.reserve(schema.attrs.size());
  for (const ops::OpAttr& attr : schema.attrs) {
    if (attr.type_index == AttributeIndex<Place>()) {  // the place comes from the executor
      attrs.emplace_back(place);
      continue;
    }
    const std::string& legacy_name = Renamed(schema.legacy.attrs, attr.name);
    const ProtoAttr* stored = op.FindAttr(legacy_name);
    const ProtoAttr* exact = op.FindAttr("str_value");
    if (attr.type_index == AttributeIndex<Scalar>() && legacy_name == "value" && exact != nullptr &&
        exact->type() == proto::STRING && !exact->s().empty()) {
      attrs.push_back(ScalarFromString(exact->s(), where));
    } else if (stored != nullptr) {
      attrs.push_back(FromProtoAttr(*stored, attr.type_index, where));
    } else {
      PD_CHECK(attr.has_default,
               errors::InvalidArgument(where, ": required attribute '",
                                       Renamed(schema.legacy.attrs, attr.name), "' is missing"));
      attrs.push_back(attr.default_value);
    }
  }
  return attrs;
}

}  // namespace paddle::framework
