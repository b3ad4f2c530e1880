#include "paddle/framework/program_desc.h"

#include "paddle/common/errors.h"

namespace paddle::framework {

namespace {

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF). proto2 does not check its string fields, and Python can only take valid text.
bool IsUtf8(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    size_t extra = 0;
    uint32_t code = c;
    if ((c & 0xE0) == 0xC0) {
      extra = 1, code = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, code = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, code = c & 0x07;
    } else if (c >= 0x80) {
      return false;
    }
    if (n - i <= extra) return false;  // the sequence runs past the end
    for (size_t k = 1; k <= extra; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      code = (code << 6) | (s[i + k] & 0x3F);
    }
    static constexpr uint32_t kMinimum[] = {0, 0x80, 0x800, 0x10000};
    if (code < kMinimum[extra] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
      return false;
    }
    i += extra + 1;
  }
  return true;
}

// Every string of the program that Python reads (names, op types, slots, string attributes) is
// valid UTF-8; the error names the file and where the bad string is.
void CheckStringsAreUtf8(const proto::ProgramDesc& desc, const std::string& source) {
  auto check = [&](const std::string& text, int block, const char* what) {
    PD_CHECK(IsUtf8(text), errors::InvalidArgument(source, ": block ", block, " has a ", what,
                                                   " that is not valid UTF-8; the file is "
                                                   "corrupt"));
  };
  for (int b = 0; b < desc.blocks_size(); ++b) {
    for (const proto::VarDesc& var : desc.blocks(b).vars()) check(var.name(), b, "variable name");
    for (const proto::OpDesc& op : desc.blocks(b).ops()) {
      check(op.type(), b, "op type");
      for (const auto* slots : {&op.inputs(), &op.outputs()}) {
        for (const auto& slot : *slots) {
          check(slot.parameter(), b, "slot name");
          for (const std::string& argument : slot.arguments()) check(argument, b, "argument");
        }
      }
      for (const auto& attr : op.attrs()) {
        check(attr.name(), b, "attribute name");
        check(attr.s(), b, "string attribute");
        for (const std::string& text : attr.strings()) check(text, b, "string attribute");
      }
    }
  }
}

}  // namespace

ProgramDesc::ProgramDesc() { blocks_.push_back(std::make_unique<BlockDesc>(this, 0, -1)); }

ProgramDesc::ProgramDesc(const ProgramDesc& other) : ProgramDesc(other.ToProto()) {}

ProgramDesc::ProgramDesc(const proto::ProgramDesc& desc) {
  for (const proto::BlockDesc& block : desc.blocks()) {
    blocks_.push_back(std::make_unique<BlockDesc>(this, block));
  }
  if (desc.has_version()) version_ = desc.version().version();
  op_version_map_ = desc.op_version_map();
}

std::unique_ptr<ProgramDesc> ProgramDesc::Parse(const std::string& bytes,
                                                const std::string& source) {
  proto::ProgramDesc desc;
  PD_CHECK(desc.ParseFromString(bytes),
           errors::InvalidArgument(source, ": not a valid serialized ProgramDesc (", bytes.size(),
                                   " bytes could not be parsed; the file is truncated, corrupt or "
                                   "not a .pdmodel)"));
  PD_CHECK(desc.blocks_size() > 0,
           errors::InvalidArgument(source, ": the ProgramDesc has no blocks"));
  CheckStringsAreUtf8(desc, source);
  for (int i = 0; i < desc.blocks_size(); ++i) {
    const proto::BlockDesc& block = desc.blocks(i);
    PD_CHECK(block.idx() == i, errors::InvalidArgument(source, ": block ", i, " has idx ",
                                                       block.idx(), "; expected ", i));
    int parent = block.parent_idx();
    PD_CHECK(i == 0 ? parent == -1 : (parent >= 0 && parent < i),
             errors::InvalidArgument(source, ": block ", i, " has parent_idx ", parent,
                                     "; expected ", i == 0 ? "-1" : "an earlier block"));
    for (const proto::OpDesc& op : block.ops()) {
      for (const auto& attr : op.attrs()) {
        bool bad_block = (attr.type() == proto::BLOCK &&
                          (attr.block_idx() <= i || attr.block_idx() >= desc.blocks_size()));
        PD_CHECK(!bad_block, errors::InvalidArgument(source, ": op '", op.type(), "' in block ", i,
                                                     " refers to sub-block ", attr.block_idx(),
                                                     ", which does not exist or is not nested"));
      }
    }
  }
  return std::unique_ptr<ProgramDesc>(new ProgramDesc(desc));
}

BlockDesc* ProgramDesc::AppendBlock(const BlockDesc& parent) {
  Touch();
  blocks_.push_back(
      std::make_unique<BlockDesc>(this, static_cast<int>(blocks_.size()), parent.idx()));
  return blocks_.back().get();
}

BlockDesc* ProgramDesc::Block(size_t idx) const {
  PD_CHECK(idx < blocks_.size(),
           errors::OutOfRange("block index ", idx, " is out of range; the program has ",
                              blocks_.size(), " blocks"));
  return blocks_[idx].get();
}

proto::ProgramDesc ProgramDesc::ToProto() const {
  proto::ProgramDesc desc;
  for (const auto& block : blocks_) *desc.add_blocks() = block->ToProto();
  desc.mutable_version()->set_version(version_);
  if (op_version_map_.pair_size() > 0) *desc.mutable_op_version_map() = op_version_map_;
  return desc;
}

std::string ProgramDesc::Serialize() const {
  std::string bytes;
  ToProto().SerializeToString(&bytes);
  return bytes;
}

}  // namespace paddle::framework
