#include "paddle/common/flags.h"

#include <cstdlib>

#include "paddle/common/errors.h"

namespace paddle::flags {

namespace {
std::string StripPrefix(const std::string& name) {
  return name.rfind("FLAGS_", 0) == 0 ? name.substr(6) : name;
}
}  // namespace

void InitFromEnvironment() {
  std::vector<gflags::CommandLineFlagInfo> all;
  gflags::GetAllFlags(&all);
  for (const auto& info : all) {
    const char* value = std::getenv(("FLAGS_" + info.name).c_str());
    if (value != nullptr) {
      PD_CHECK(!gflags::SetCommandLineOption(info.name.c_str(), value).empty(),
               errors::InvalidArgument("environment variable FLAGS_", info.name, "=", value,
                                       " is rejected: expected a ", info.type, " (",
                                       info.description, ")"));
    }
  }
}

bool Exists(const std::string& name) {
  gflags::CommandLineFlagInfo info;
  return gflags::GetCommandLineFlagInfo(StripPrefix(name).c_str(), &info);
}

void Set(const std::string& name, const std::string& value) {
  std::string bare = StripPrefix(name);
  PD_CHECK(Exists(bare), errors::NotFound("set_flags: flag 'FLAGS_", bare, "' does not exist"));
  if (gflags::SetCommandLineOption(bare.c_str(), value.c_str()).empty()) {
    // Either the text is not of the flag's type or the flag's validator refused the value; the
    // description says which values it takes.
    gflags::CommandLineFlagInfo info;
    gflags::GetCommandLineFlagInfo(bare.c_str(), &info);
    PD_THROW(errors::InvalidArgument("set_flags: FLAGS_", bare, " rejects '", value,
                                     "': expected a ", info.type, " (", info.description, ")"));
  }
}

std::string Get(const std::string& name) {
  std::string bare = StripPrefix(name);
  std::string value;
  PD_CHECK(gflags::GetCommandLineOption(bare.c_str(), &value),
           errors::NotFound("get_flags: flag 'FLAGS_", bare, "' does not exist"));
  return value;
}

std::string TypeOf(const std::string& name) {
  gflags::CommandLineFlagInfo info;
  PD_CHECK(gflags::GetCommandLineFlagInfo(StripPrefix(name).c_str(), &info),
           errors::NotFound("flag 'FLAGS_", StripPrefix(name), "' does not exist"));
  return info.type;
}

std::vector<std::string> List() {
  std::vector<gflags::CommandLineFlagInfo> all;
  gflags::GetAllFlags(&all);
  std::vector<std::string> names;
  for (const auto& info : all) {
    // gflags defines its own flags (--help, --flagfile, ...); list only the framework's.
    if (info.filename.find("paddle/") != std::string::npos) names.push_back("FLAGS_" + info.name);
  }
  return names;
}

}  // namespace paddle::flags
