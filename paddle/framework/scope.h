// Scope: the variables a program runs on, by name. Child scopes (sub-blocks, loop steps) see
// their ancestors' variables; parameters live in the root scope across runs.
#pragma once

#include <list>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "paddle/core/dense_tensor.h"
#include "paddle/core/selected_rows.h"
#include "paddle/framework/var_desc.h"

namespace paddle::framework {

class Scope;

// One variable's value: a dense tensor, a SelectedRows (whose value is that dense tensor) or a
// list of tensors (feed/fetch lists, tensor arrays). The tensor object lives as long as the
// variable, so prepared ops keep pointers to it; garbage collection releases only its storage.
class Variable {
 public:
  Variable() : tensor_(std::make_shared<DenseTensor>()) {}

  VarKind kind() const { return kind_; }
  void set_kind(VarKind kind) { kind_ = kind; }
  DenseTensor* tensor() { return tensor_.get(); }
  const std::shared_ptr<DenseTensor>& shared_tensor() const { return tensor_; }
  std::vector<DenseTensor>* tensor_list() { return &list_; }
  // A SELECTED_ROWS variable's rows and height; its value is tensor().
  SelectedRows* selected_rows() { return shared_selected_rows().get(); }
  const std::shared_ptr<SelectedRows>& shared_selected_rows() {
    if (selected_rows_ == nullptr) {
      selected_rows_ = std::make_shared<SelectedRows>(std::vector<int64_t>(), 0, tensor_);
    }
    return selected_rows_;
  }
  // A STEP_SCOPES variable's value: the child scopes a control-flow op ran its sub-block in,
  // kept for its gradient op. Their parent scope owns them.
  std::vector<Scope*>* step_scopes() { return &step_scopes_; }

 private:
  VarKind kind_ = proto::VarType::DENSE_TENSOR;
  std::shared_ptr<DenseTensor> tensor_;
  std::shared_ptr<SelectedRows> selected_rows_;
  std::vector<DenseTensor> list_;
  std::vector<Scope*> step_scopes_;
};

class Scope {
 public:
  Scope();
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

  // The variable named `name` in this scope, created when absent here.
  Variable* Var(const std::string& name);
  // This scope, then its ancestors; null when absent everywhere.
  Variable* FindVar(const std::string& name) const;
  Variable* FindLocalVar(const std::string& name) const;
  void EraseVars(const std::vector<std::string>& names);
  std::vector<std::string> LocalVarNames() const;

  Scope& NewScope();
  // Destroys `kid`, a scope this scope's NewScope made.
  void DeleteScope(Scope* kid);
  void DropKids();
  const Scope* parent() const { return parent_; }

  // What a prepared block bound to this scope relies on: the scope's identity (unique for the
  // life of the process, unlike its address) and the variables of it and its ancestors (a sum of
  // counters that erasing variables bumps). Either changing means binding again.
  uint64_t id() const { return id_; }
  uint64_t BindingVersion() const;

 private:
  // STEP_SCOPES variables must not keep pointers to kids being destroyed (`kid`, or all: null).
  void ForgetStepScopes(const Scope* kid);

  uint64_t id_;
  uint64_t erase_count_ = 0;
  const Scope* parent_ = nullptr;
  std::unordered_map<std::string, std::unique_ptr<Variable>> vars_;
  std::list<std::unique_ptr<Scope>> kids_;
};

}  // namespace paddle::framework
