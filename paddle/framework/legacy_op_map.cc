#include "paddle/framework/legacy_op_map.h"

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

}  // namespace

const std::string& LegacyType(const ops::OpSchema& op) {
  return op.legacy.type.empty() ? op.name : op.legacy.type;
}

const std::string& LegacyInputSlot(const ops::OpSchema& op, size_t input) {
  return Renamed(op.legacy.inputs, op.inputs[input].name);
}

const std::string& LegacyOutputSlot(const ops::OpSchema& op, size_t output) {
  return Renamed(op.legacy.outputs, op.outputs[output].name);
}

std::string GradSlot(const std::string& slot) { return slot + "@GRAD"; }
std::string GradVarName(const std::string& var) { return var + "@GRAD"; }

const ops::OpSchema* FindSchemaForOpDesc(const OpDesc& op) {
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
    if (attr.type_index == 13) {  // the place comes from the executor
      attrs.emplace_back(place);
      continue;
    }
    const ProtoAttr* stored = op.FindAttr(Renamed(schema.legacy.attrs, attr.name));
    if (stored != nullptr) {
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
