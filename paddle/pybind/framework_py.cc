// The static-graph classes: ProgramDesc, BlockDesc, OpDesc, VarDesc, Scope and the Executor.
// python/paddle/static wraps them into Paddle's Program/Block/Operator/Variable API.
#include <pybind11/stl.h>

#include <set>
#include <string>

#include "paddle/framework/amp_rewrite.h"
#include "paddle/framework/backward_builder.h"
#include "paddle/framework/executor.h"
#include "paddle/framework/inference_passes.h"
#include "paddle/framework/op_builder.h"
#include "paddle/framework/program_desc.h"
#include "paddle/framework/proto_data_type.h"
#include "paddle/pybind/bind.h"

namespace paddle::pybind {

namespace {

using framework::BlockDesc;
using framework::OpDesc;
using framework::ProgramDesc;
using framework::ProtoAttr;
using framework::Scope;
using framework::VarDesc;
using framework::Variable;
namespace proto = framework::proto;

py::object AttrToPy(const ProtoAttr& a) {
  switch (a.type()) {
    case proto::INT:
      return py::int_(a.i());
    case proto::LONG:
      return py::int_(a.l());
    case proto::FLOAT:
      return py::float_(a.f());
    case proto::FLOAT64:
      return py::float_(a.float64());
    case proto::STRING:
      return py::str(a.s());
    case proto::BOOLEAN:
      return py::bool_(a.b());
    case proto::BLOCK:
      return py::int_(a.block_idx());
    case proto::INTS:
      return py::cast(std::vector<int>(a.ints().begin(), a.ints().end()));
    case proto::LONGS:
      return py::cast(std::vector<int64_t>(a.longs().begin(), a.longs().end()));
    case proto::FLOATS:
      return py::cast(std::vector<float>(a.floats().begin(), a.floats().end()));
    case proto::FLOAT64S:
      return py::cast(std::vector<double>(a.float64s().begin(), a.float64s().end()));
    case proto::STRINGS:
      return py::cast(std::vector<std::string>(a.strings().begin(), a.strings().end()));
    case proto::BOOLEANS:
      return py::cast(std::vector<bool>(a.bools().begin(), a.bools().end()));
    case proto::BLOCKS:
      return py::cast(std::vector<int>(a.blocks_idx().begin(), a.blocks_idx().end()));
    default:
      return py::none();
  }
}

// Python values take Paddle's attribute types: bool, int (INT, or LONG beyond int32), float,
// str and homogeneous lists of them.
ProtoAttr AttrFromPy(const std::string& name, py::handle v) {
  ProtoAttr a;
  a.set_name(name);
  auto fits = [](int64_t x) { return x >= INT32_MIN && x <= INT32_MAX; };
  if (py::isinstance<py::bool_>(v)) {
    a.set_type(proto::BOOLEAN);
    a.set_b(v.cast<bool>());
  } else if (py::isinstance<py::int_>(v)) {
    int64_t x = v.cast<int64_t>();
    a.set_type(fits(x) ? proto::INT : proto::LONG);
    if (fits(x)) {
      a.set_i(static_cast<int32_t>(x));
    } else {
      a.set_l(x);
    }
  } else if (py::isinstance<py::float_>(v)) {
    a.set_type(proto::FLOAT);
    a.set_f(v.cast<float>());
  } else if (py::isinstance<py::str>(v)) {
    a.set_type(proto::STRING);
    a.set_s(v.cast<std::string>());
  } else if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
    bool all_bool = true, all_int = true, all_str = true, wide = false;
    for (py::handle item : seq) {
      all_bool = all_bool && py::isinstance<py::bool_>(item);
      bool is_int = py::isinstance<py::int_>(item) && !py::isinstance<py::bool_>(item);
      all_int = all_int && is_int;
      all_str = all_str && py::isinstance<py::str>(item);
      if (is_int && !fits(item.cast<int64_t>())) wide = true;
    }
    if (seq.size() > 0 && all_bool) {
      a.set_type(proto::BOOLEANS);
      for (py::handle item : seq) a.add_bools(item.cast<bool>());
    } else if (all_int) {
      a.set_type(wide ? proto::LONGS : proto::INTS);
      for (py::handle item : seq) {
        if (wide) {
          a.add_longs(item.cast<int64_t>());
        } else {
          a.add_ints(item.cast<int32_t>());
        }
      }
    } else if (all_str) {
      a.set_type(proto::STRINGS);
      for (py::handle item : seq) a.add_strings(item.cast<std::string>());
    } else {
      a.set_type(proto::FLOATS);
      for (py::handle item : seq) a.add_floats(item.cast<float>());
    }
  } else {
    PD_THROW(errors::InvalidType("attribute '", name,
                                 "' must be a bool, int, float, str or a "
                                 "list of them, not ",
                                 std::string(py::str(v.get_type().attr("__name__")))));
  }
  return a;
}

py::bytes Serialize(const google::protobuf::Message& message) {
  std::string bytes;
  message.SerializeToString(&bytes);
  return py::bytes(bytes);
}

}  // namespace

void BindFramework(py::module_& m) {
  py::class_<VarDesc>(m, "VarDesc")
      .def("name", &VarDesc::name)
      .def("type", [](const VarDesc& v) { return static_cast<int>(v.kind()); })
      .def("set_type",
           [](VarDesc& v, int kind) {
             PD_CHECK(proto::VarType::Type_IsValid(kind),
                      errors::InvalidArgument("unknown variable type ", kind));
             v.set_kind(static_cast<proto::VarType::Type>(kind));
           })
      .def("has_tensor_desc", &VarDesc::has_tensor_desc)
      .def("dtype", &VarDesc::dtype)
      .def("set_dtype", &VarDesc::set_dtype)
      .def("shape", &VarDesc::shape)
      .def("set_shape", &VarDesc::set_shape)
      .def("persistable", &VarDesc::persistable)
      .def("set_persistable", &VarDesc::set_persistable)
      .def("is_parameter", &VarDesc::is_parameter)
      .def("set_is_parameter", &VarDesc::set_is_parameter)
      .def("stop_gradient", &VarDesc::stop_gradient)
      .def("set_stop_gradient", &VarDesc::set_stop_gradient)
      .def("need_check_feed", &VarDesc::need_check_feed)
      .def("set_need_check_feed", &VarDesc::set_need_check_feed)
      .def("serialize_to_string", [](const VarDesc& v) { return Serialize(v.proto()); });

  py::class_<OpDesc>(m, "OpDesc")
      .def("type", &OpDesc::type)
      .def("set_type", &OpDesc::set_type)
      .def("input", &OpDesc::Input)
      .def("output", &OpDesc::Output)
      .def("set_input", &OpDesc::SetInput)
      .def("set_output", &OpDesc::SetOutput)
      .def("input_names", &OpDesc::InputSlots)
      .def("output_names", &OpDesc::OutputSlots)
      .def("input_arg_names", &OpDesc::InputNames)
      .def("output_arg_names", &OpDesc::OutputNames)
      .def("rename_input", &OpDesc::RenameInput)
      .def("rename_output", &OpDesc::RenameOutput)
      .def("has_attr", &OpDesc::HasAttr)
      .def("attr",
           [](const OpDesc& op, const std::string& name) {
             const ProtoAttr* a = op.FindAttr(name);
             PD_CHECK(a != nullptr,
                      errors::NotFound("op '", op.type(), "' has no attribute '", name, "'"));
             return AttrToPy(*a);
           })
      .def("set_attr", [](OpDesc& op, const std::string& name,
                          py::handle v) { op.SetAttr(AttrFromPy(name, v)); })
      .def("set_block_attr",
           [](OpDesc& op, const std::string& name, int block_idx) {
             op.SetAttr(framework::MakeBlockAttr(name, block_idx));
           })
      .def("remove_attr", &OpDesc::RemoveAttr)
      .def("attr_names", &OpDesc::AttrNames)
      .def("serialize_to_string", [](const OpDesc& op) { return Serialize(op.proto()); });

  py::class_<BlockDesc>(m, "BlockDesc")
      .def_property_readonly("id", &BlockDesc::idx)
      .def_property_readonly("parent", &BlockDesc::parent_idx)
      .def("get_forward_block_idx", &BlockDesc::forward_block_idx)
      .def("set_forward_block_idx", &BlockDesc::set_forward_block_idx)
      .def("var", &BlockDesc::Var, py::return_value_policy::reference_internal)
      .def("find_var", &BlockDesc::FindVar, py::return_value_policy::reference_internal)
      .def("find_var_recursive", &BlockDesc::FindVarRecursive,
           py::return_value_policy::reference_internal)
      .def("has_var",
           [](const BlockDesc& b, const std::string& n) { return b.FindVar(n) != nullptr; })
      .def("_remove_var", &BlockDesc::RemoveVar)
      .def("_rename_var", &BlockDesc::RenameVar)
      .def("all_vars", &BlockDesc::AllVars, py::return_value_policy::reference_internal)
      .def("append_op", &BlockDesc::AppendOp, py::return_value_policy::reference_internal)
      .def("_insert_op", &BlockDesc::InsertOp, py::return_value_policy::reference_internal)
      .def("_remove_op", &BlockDesc::RemoveOps)
      .def("op_size", &BlockDesc::OpSize)
      .def("op", &BlockDesc::Op, py::return_value_policy::reference_internal);

  py::class_<ProgramDesc>(m, "ProgramDesc")
      .def(py::init<>())
      .def(py::init<const ProgramDesc&>())
      .def("block", &ProgramDesc::Block, py::return_value_policy::reference_internal)
      .def("append_block", &ProgramDesc::AppendBlock, py::return_value_policy::reference_internal)
      .def("num_blocks", &ProgramDesc::Size)
      .def("revision", &ProgramDesc::revision)
      .def("version", &ProgramDesc::version)
      .def("serialize_to_string", [](const ProgramDesc& p) { return py::bytes(p.Serialize()); });
  m.def(
      "_parse_program",
      [](const py::bytes& bytes, const std::string& source) {
        return ProgramDesc::Parse(std::string(bytes), source);
      },
      py::arg("data"), py::arg("source"));

  py::class_<Variable>(m, "ScopeVariable")
      .def("get_tensor", [](Variable& v) { return Tensor(v.shared_tensor()); })
      .def("is_initialized", [](Variable& v) { return v.tensor()->initialized(); })
      // The address of the variable's data (0 when it holds none): shows buffer sharing.
      .def("_data_address",
           [](Variable& v) {
             DenseTensor* t = v.tensor();
             return t->has_allocation()
                        ? reinterpret_cast<uintptr_t>(t->holder()->ptr()) + t->offset()
                        : uintptr_t{0};
           })
      .def("set_tensor_list",
           [](Variable& v, const std::vector<Tensor>& tensors) {
             v.tensor_list()->clear();
             for (const Tensor& t : tensors) v.tensor_list()->push_back(t.dense());
           })
      .def("get_tensor_list", [](Variable& v) {
        std::vector<Tensor> out;
        for (const DenseTensor& t : *v.tensor_list()) {
          out.emplace_back(std::make_shared<DenseTensor>(t));
        }
        return out;
      });

  py::class_<Scope>(m, "Scope")
      .def(py::init<>())
      .def("var", &Scope::Var, py::return_value_policy::reference_internal)
      .def("find_var", &Scope::FindVar, py::return_value_policy::reference_internal)
      .def("local_var_names", &Scope::LocalVarNames)
      .def("erase_vars", &Scope::EraseVars)
      .def("new_scope", &Scope::NewScope, py::return_value_policy::reference_internal)
      .def("drop_kids", &Scope::DropKids);
  // Writes `src`'s data and meta into the scope variable's tensor, keeping the tensor object
  // (prepared executors point at it).
  m.def("_set_scope_tensor", [](Variable& var, const Tensor& src) { *var.tensor() = src.dense(); });
  // The same for a Tensor that aliases a scope variable (ScopeVariable.get_tensor()).
  m.def("_set_tensor_data", [](Tensor& dst, const Tensor& src) { *dst.impl() = src.dense(); });

  py::class_<framework::PreparedBlock>(m, "PreparedBlock")
      .def("revision", &framework::PreparedBlock::revision)
      .def("size", &framework::PreparedBlock::size)
      .def("dead_after", &framework::PreparedBlock::DeadAfter)
      .def("inplace_pairs", &framework::PreparedBlock::InplacePairs);

  py::class_<framework::Executor>(m, "NativeExecutor")
      .def(py::init([](py::handle place) { return framework::Executor(PlaceFromPy(place)); }))
      .def(
          "prepare",
          [](framework::Executor& e, const ProgramDesc& program, int block,
             const std::vector<std::string>& skip_vars, bool enable_inplace) {
            framework::PrepareOptions options;
            options.skip_vars = skip_vars;
            options.enable_inplace = enable_inplace;
            return e.Prepare(program, block, options);
          },
          py::keep_alive<0, 2>())
      .def("run", &framework::Executor::Run);

  m.def("_append_backward", &framework::AppendBackward, py::arg("block"), py::arg("targets"),
        py::arg("target_grads"), py::arg("no_grad"));
  m.def("_rebuild_forward_ops_with_amp", [](framework::BlockDesc* block,
                                            const std::set<std::string>& float32_vars) {
    py::object make_name = py::module_::import("paddle.static.program").attr("_unique_tmp_name");
    return framework::RebuildForwardOpsWithAmp(block, float32_vars, [&](const std::string& key) {
      return make_name(key).cast<std::string>();
    });
  });
  m.def("_set_op_role",
        [](int role) { framework::SetCurrentOpRole(static_cast<framework::OpRole>(role)); });
  m.def("_op_role", []() { return static_cast<int>(framework::CurrentOpRole()); });
  m.def("_apply_inference_passes", &framework::ApplyInferencePasses, py::arg("program"),
        py::arg("scope"), py::arg("outputs") = std::vector<std::string>{});
}

}  // namespace paddle::pybind
