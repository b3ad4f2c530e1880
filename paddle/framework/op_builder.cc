#include "paddle/framework/op_builder.h"

#include <cstdio>

#include "paddle/common/errors.h"
#include "paddle/framework/legacy_op_map.h"
#include "paddle/framework/proto_attribute.h"
#include "paddle/imperative/amp.h"

namespace paddle::framework {

namespace {

OpRole g_op_role = OpRole::kForward;

// Floating inputs of different precision meet at the wider type through cast ops, as in
// dygraph; integer/float mixes are an error there and here.
void PromoteInputs(BlockDesc* block, const ops::OpSchema& op, StaticOpCall* call,
                   const NameFn& make_name) {
  std::array<DataType, ops::kMaxPromotedInputs> dtypes{};
  for (size_t k = 0; k < op.promote.size(); ++k)
    dtypes[k] = call->inputs[op.promote[k]][0]->dtype();
  DataType common = ops::PromotedType(op, dtypes);
  const ops::OpSchema& cast = ops::GetOp("cast");
  for (int i : op.promote) {
    VarDesc*& var = call->inputs[i][0];
    if (var->dtype() == common) continue;
    StaticOpCall cast_call;
    cast_call.inputs = {{var}};
    cast_call.attrs = {common};
    var = AppendSchemaOp(block, cast, std::move(cast_call), false, make_name).outputs[0][0];
  }
}

// auto_cast while a program is built: the floating inputs take the dtype the dygraph rules give
// them (paddle/imperative/amp.h), through cast ops. The program is taken to run on the CPU for
// the question whether the op has a low-precision kernel.
void AmpCastInputs(BlockDesc* block, const ops::OpSchema& op, StaticOpCall* call,
                   const NameFn& make_name) {
  bool has_float32 = false;
  bool has_low = false;
  for (const std::vector<VarDesc*>& slot : call->inputs) {
    for (const VarDesc* v : slot) {
      if (!v->has_tensor_desc()) continue;
      has_float32 |= v->dtype() == DataType::FLOAT32;
      has_low |= v->dtype() == DataType::FLOAT16 || v->dtype() == DataType::BFLOAT16;
    }
  }
  DataType target = imperative::AmpCastTarget(op, has_float32, has_low, Backend::CPU);
  if (target == DataType::UNDEFINED) return;
  const ops::OpSchema& cast = ops::GetOp("cast");
  for (std::vector<VarDesc*>& slot : call->inputs) {
    for (VarDesc*& var : slot) {
      if (!var->has_tensor_desc() || var->dtype() == target) continue;
      DataType dtype = var->dtype();
      if (dtype != DataType::FLOAT32 && dtype != DataType::FLOAT16 && dtype != DataType::BFLOAT16) {
        continue;
      }
      StaticOpCall cast_call;
      cast_call.inputs = {{var}};
      cast_call.attrs = {target};
      var = AppendSchemaOp(block, cast, std::move(cast_call), false, make_name).outputs[0][0];
    }
  }
}

// fill_constant's `value` attribute is a float; Paddle also writes the exact value as the string
// `str_value`, which its kernels (and ours, see SchemaAttrsOf) prefer, so float64 and large
// int64 fills survive the program.
void WriteStrValue(const ops::OpSchema& op, const std::vector<Attribute>& attrs, OpDesc* desc) {
  int index = op.FindAttr("value");
  if (index < 0) return;
  const auto* value = std::get_if<Scalar>(&attrs[index]);
  if (value == nullptr) return;
  char text[32];
  if (value->is_integral() || value->dtype() == DataType::BOOL) {
    std::snprintf(text, sizeof(text), "%lld", static_cast<long long>(value->to<int64_t>()));
  } else {
    std::snprintf(text, sizeof(text), "%.17g", value->to<double>());
  }
  ProtoAttr attr;
  attr.set_name("str_value");
  attr.set_type(proto::STRING);
  attr.set_s(text);
  desc->SetAttr(std::move(attr));
}

// InferMeta runs on VarDesc metadata: -1 marks a dimension unknown until the program runs.
TensorMeta MetaOf(const VarDesc& var) {
  TensorMeta meta;
  meta.dims = DDim(var.shape());
  meta.dtype = var.dtype();
  return meta;
}

}  // namespace

OpRole CurrentOpRole() { return g_op_role; }
void SetCurrentOpRole(OpRole role) { g_op_role = role; }

AppendedOp AppendSchemaOp(BlockDesc* block, const ops::OpSchema& op, StaticOpCall call,
                          bool inplace, const NameFn& make_name) {
  PD_INTERNAL_ASSERT(call.inputs.size() == op.inputs.size() && call.attrs.size() == op.attrs.size(),
                     op.name, " built with the wrong number of arguments");
  call.outputs.resize(op.outputs.size());
  if (inplace) {
    PD_CHECK(!op.inplace.empty(),
             errors::Unimplemented(op.name, " has no in-place variant ", op.name, "_"));
    for (const auto& [in, out] : op.inplace) {
      if (!call.inputs[in].empty()) call.outputs[out] = {call.inputs[in][0]};
    }
  }
  if (!inplace && imperative::AmpEnabled()) AmpCastInputs(block, op, &call, make_name);
  if (!op.promote.empty()) PromoteInputs(block, op, &call, make_name);

  ops::InferMetaArgs meta;
  meta.inputs.resize(call.inputs.size());
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    for (const VarDesc* v : call.inputs[i]) {
      PD_CHECK(v->has_tensor_desc(),
               errors::InvalidArgument(op.name, ": input '", op.inputs[i].name, "' ('", v->name(),
                                       "') is not a tensor variable"));
      meta.inputs[i].push_back(MetaOf(*v));
    }
  }
  meta.attrs = &call.attrs;
  ops::RunInferMeta(op, &meta);

  const std::string& type = LegacyType(op);
  OpDesc* desc = block->AppendOp();
  desc->set_type(type);
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    if (call.inputs[i].empty()) continue;
    std::vector<std::string> names;
    for (const VarDesc* v : call.inputs[i]) names.push_back(v->name());
    desc->SetInput(LegacyInputSlot(op, i), names);
  }

  AppendedOp result{desc, std::vector<std::vector<VarDesc*>>(op.outputs.size())};
  for (size_t k = 0; k < op.outputs.size(); ++k) {
    std::vector<VarDesc*>& outs = result.outputs[k];
    int optional_in = ops::OptionalInplaceInput(op, k);
    if (optional_in >= 0 && call.inputs[optional_in].empty()) {
      outs.push_back(nullptr);
      continue;
    }
    if (!call.outputs[k].empty()) {
      outs = call.outputs[k];
    } else {
      for (size_t j = 0; j < meta.outputs[k].size(); ++j)
        outs.push_back(block->Var(make_name(type)));
    }
    std::vector<std::string> names;
    for (size_t j = 0; j < outs.size(); ++j) {
      VarDesc* var = outs[j];
      const TensorMeta& m = meta.outputs[k][j];
      var->set_dtype(m.dtype);
      var->set_shape(m.dims.ToVector());
      // As in Paddle, new floating outputs take part in backward unless marked otherwise;
      // backward itself decides which of them a gradient reaches.
      if (call.outputs[k].empty()) {
        var->set_stop_gradient(!IsFloating(m.dtype) && !IsComplex(m.dtype));
      }
      names.push_back(var->name());
    }
    desc->SetOutput(LegacyOutputSlot(op, k), names);
  }

  for (size_t j = 0; j < op.attrs.size(); ++j) {
    std::optional<ProtoAttr> attr = ToProtoAttr(LegacyAttrName(op, j), call.attrs[j]);
    if (attr) desc->SetAttr(std::move(*attr));
  }
  for (const auto& [name, value] : op.legacy.extra_attrs) {
    if (std::optional<ProtoAttr> attr = ToProtoAttr(name, value)) desc->SetAttr(std::move(*attr));
  }
  if (type == "fill_constant") WriteStrValue(op, call.attrs, desc);
  desc->SetAttr(MakeIntAttr(kOpRoleAttr, static_cast<int>(g_op_role)));
  return result;
}

}  // namespace paddle::framework
