// Paddle's binary record of one dense tensor, and the two file formats built from it: the
// `.pdiparams` file of save_combine (one record per variable, in the order the caller gives, with
// no header, names or count) and the one-record file of Paddle's `save` op. Files written here load
// in PaddlePaddle and the other way round. The byte layout is spelled out in tensor_io.cc.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "paddle/core/dense_tensor.h"

namespace paddle::framework {

// Writes `t` as one record; a tensor on a GPU is copied to the host first.
void SerializeDenseTensor(const DenseTensor& t, std::ostream& out);

// Reads one record into a new CPU tensor. `what` names the record in error messages ("file
// 'x.pdiparams', variable 'fc_0.w_0'"). A malformed or truncated record raises InvalidArgument (an
// unsupported element type InvalidType) before any storage is allocated for it; LoD levels,
// which DenseTensor does not have, are validated and dropped.
DenseTensor DeserializeDenseTensor(std::istream& in, const std::string& what);

// Writes one record per variable, in the given order (Paddle's readers expect names sorted
// byte-wise; the caller sorts). The file is written beside `path` and renamed onto it only once
// complete, so a failure leaves any previous file untouched.
void SaveCombine(const std::string& path,
                 const std::vector<std::pair<std::string, const DenseTensor*>>& vars);

// Reads one record per name, in order; the stream must end after the last one. Errors name
// `source` (the file or bytes read) and the variable.
std::vector<DenseTensor> DeserializeCombine(std::istream& in, const std::vector<std::string>& names,
                                            const std::string& source);

// Reads one record per name, in order; the file must end after the last one. A missing file
// raises NotFound.
std::vector<DenseTensor> LoadCombine(const std::string& path,
                                     const std::vector<std::string>& names);

// The single-record file of Paddle's `save` / `load` ops, written atomically like SaveCombine.
void SaveDenseTensor(const std::string& path, const DenseTensor& t);
DenseTensor LoadDenseTensor(const std::string& path);

}  // namespace paddle::framework
