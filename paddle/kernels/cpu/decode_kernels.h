// CPU kernels of the step-wise decoders (paddle/ops/yaml/decode.yaml): one LoD beam search
// step, the back-tracing of a finished beam search, and Viterbi decoding. The LoD that Paddle
// reads from its tensors comes as offset tensors here (decode.yaml says how); the checks that
// depend on their values happen before anything is written.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/core/dense_tensor.h"

namespace paddle {

namespace decode_detail {

// The values of an int32 or int64 tensor as int64.
inline std::vector<int64_t> Int64Values(const DenseTensor& t) {
  std::vector<int64_t> values(static_cast<size_t>(t.numel()));
  if (t.dtype() == DataType::INT64) {
    std::copy_n(t.data<int64_t>(), values.size(), values.begin());
  } else {
    std::copy_n(t.data<int32_t>(), values.size(), values.begin());
  }
  return values;
}

// LoD offsets: 0 first, non-decreasing, `total` last.
inline void CheckOffsets(const std::vector<int64_t>& offsets, int64_t total, const char* op,
                         const std::string& name, const char* total_what) {
  PD_CHECK(!offsets.empty() && offsets.front() == 0 && offsets.back() == total,
           errors::InvalidArgument(op, ": argument '", name, "' must be offsets from 0 to ", total,
                                   " (", total_what, "), received ", offsets.size(),
                                   " offsets from ", offsets.empty() ? 0 : offsets.front(), " to ",
                                   offsets.empty() ? 0 : offsets.back()));
  for (size_t i = 1; i < offsets.size(); ++i) {
    PD_CHECK(offsets[i] >= offsets[i - 1],
             errors::InvalidArgument(op, ": argument '", name,
                                     "' must be non-decreasing offsets, received ", offsets[i],
                                     " after ", offsets[i - 1], " at ", i));
  }
}

template <typename T>
struct BeamCandidate {
  int64_t row;
  int64_t id;
  T score;
  // Paddle's order: the lower score, or of equal scores the earlier row, is worse.
  bool WorseThan(const BeamCandidate& other) const {
    return score < other.score || (score == other.score && row < other.row);
  }
};

// Paddle's insertion into a source's best `beam_size` (best first): a candidate no worse than
// the last one enters, behind those it is not better than, and pushes out the last when the
// beam is full.
template <typename T>
void InsertIntoBeam(std::vector<BeamCandidate<T>>* beam, const BeamCandidate<T>& candidate,
                    size_t beam_size) {
  if (beam->size() == beam_size) {
    if (candidate.WorseThan(beam->back())) return;
  } else {
    beam->push_back(candidate);
  }
  int64_t k = static_cast<int64_t>(beam->size()) - 2;
  for (; k >= 0 && (*beam)[k].WorseThan(candidate); --k) (*beam)[k + 1] = (*beam)[k];
  (*beam)[k + 1] = candidate;
}

template <typename T>
struct Sentence {
  std::vector<int64_t> ids;  // last step first
  std::vector<T> scores;
};

}  // namespace decode_detail

template <typename T, typename Context>
void BeamSearchKernel(const Context& ctx, const DenseTensor& pre_ids, const DenseTensor& pre_scores,
                      const DenseTensor* ids, const DenseTensor& scores,
                      const DenseTensor* source_offsets, int32_t beam_size, int32_t end_id,
                      bool is_accumulated, DenseTensor* selected_ids, DenseTensor* selected_scores,
                      DenseTensor* parent_idx, DenseTensor* selected_offsets) {
  using decode_detail::BeamCandidate;
  const int64_t rows = scores.dims()[0];
  const int64_t width = scores.dims()[1];
  std::vector<int64_t> offsets;
  if (source_offsets != nullptr) {
    offsets = decode_detail::Int64Values(*source_offsets);
    decode_detail::CheckOffsets(offsets, rows, "beam_search", "source_offsets",
                                "the rows of 'scores'");
  } else {
    offsets.resize(static_cast<size_t>(rows) + 1);
    for (int64_t r = 0; r <= rows; ++r) offsets[r] = r;
  }
  const int64_t* pre_id = pre_ids.data<int64_t>();
  const T* pre_score = pre_scores.data<T>();
  const int64_t* id = ids != nullptr ? ids->data<int64_t>() : nullptr;
  const T* score = scores.data<T>();
  const size_t sources = offsets.size() - 1;

  // The kept candidates of each row, best first.
  std::vector<std::vector<BeamCandidate<T>>> kept(static_cast<size_t>(rows));
  std::vector<BeamCandidate<T>> beam;
  for (size_t s = 0; s < sources; ++s) {
    beam.clear();
    for (int64_t r = offsets[s]; r < offsets[s + 1]; ++r) {
      if (pre_id[r] == end_id) {
        // A finished prefix keeps all its mass on end_id.
        decode_detail::InsertIntoBeam(&beam, {r, end_id, pre_score[r]},
                                      static_cast<size_t>(beam_size));
        continue;
      }
      for (int64_t c = 0; c < width; ++c) {
        const int64_t index = r * width + c;
        const T value = is_accumulated ? score[index] : pre_score[r] + std::log(score[index]);
        decode_detail::InsertIntoBeam(&beam, {r, id != nullptr ? id[index] : c, value},
                                      static_cast<size_t>(beam_size));
      }
    }
    // A source all of whose kept candidates end an ended prefix is finished: it keeps nothing.
    const bool finished = std::all_of(beam.begin(), beam.end(), [&](const auto& candidate) {
      return candidate.id == end_id && pre_id[candidate.row] == end_id;
    });
    if (finished) continue;
    for (const auto& candidate : beam) kept[candidate.row].push_back(candidate);
  }

  int64_t total = 0;
  for (const auto& row : kept) total += static_cast<int64_t>(row.size());
  selected_ids->Resize(DDim({total, 1}));
  selected_scores->Resize(DDim({total, 1}));
  parent_idx->Resize(DDim({total}));
  selected_offsets->Resize(DDim({static_cast<int64_t>(offsets.size())}));
  int64_t* out_id = ctx.template Alloc<int64_t>(selected_ids);
  T* out_score = ctx.template Alloc<T>(selected_scores);
  int32_t* out_parent = ctx.template Alloc<int32_t>(parent_idx);
  int64_t* out_offsets = ctx.template Alloc<int64_t>(selected_offsets);
  // rows_before[r]: the candidates kept by the rows before r.
  std::vector<int64_t> rows_before(static_cast<size_t>(rows) + 1, 0);
  int64_t n = 0;
  for (int64_t r = 0; r < rows; ++r) {
    rows_before[r] = n;
    for (const auto& candidate : kept[r]) {
      out_id[n] = candidate.id;
      out_score[n] = candidate.score;
      out_parent[n] = static_cast<int32_t>(r);
      ++n;
    }
  }
  rows_before[rows] = n;
  for (size_t s = 0; s < offsets.size(); ++s) out_offsets[s] = rows_before[offsets[s]];
}

template <typename T, typename Context>
void BeamSearchDecodeKernel(const Context& ctx, const std::vector<const DenseTensor*>& ids,
                            const std::vector<const DenseTensor*>& scores,
                            const std::vector<const DenseTensor*>& parent_idx,
                            const std::vector<const DenseTensor*>& source_offsets,
                            int32_t beam_size, int32_t end_id, DenseTensor* sentence_ids,
                            DenseTensor* sentence_scores, DenseTensor* sentence_offsets) {
  const char* op = "beam_search_decode";
  const size_t steps = ids.size();
  const size_t beams = static_cast<size_t>(beam_size);
  // Each step's LoD: level 0 (sources -> prefixes) as given, level 1 (prefixes -> candidates)
  // from the parents of the candidates.
  std::vector<std::vector<int64_t>> source_level(steps), prefix_level(steps);
  for (size_t t = 0; t < steps; ++t) {
    const std::string step = "[" + std::to_string(t) + "]";
    const int64_t candidates = ids[t]->dims()[0];
    source_level[t] = decode_detail::Int64Values(*source_offsets[t]);
    const int64_t prefixes = source_level[t].empty() ? 0 : source_level[t].back();
    decode_detail::CheckOffsets(source_level[t], prefixes, op, "source_offsets" + step,
                                "the step's prefixes");
    PD_CHECK(source_level[t].size() == source_level[0].size(),
             errors::InvalidArgument(op, ": every step must have the sources of step 0 (",
                                     source_level[0].size() - 1, "), 'source_offsets", step,
                                     "' has ", source_level[t].size() - 1));
    if (t > 0) {
      const int64_t previous = ids[t - 1]->dims()[0];
      PD_CHECK(prefixes == previous,
               errors::InvalidArgument(
                   op, ": the prefixes of step ", t, " (", prefixes, ", the end of 'source_offsets",
                   step, "') must be the candidates of step ", t - 1, " (", previous, ")"));
    }
    const std::vector<int64_t> parents = decode_detail::Int64Values(*parent_idx[t]);
    for (int64_t c = 0; c < candidates; ++c) {
      PD_CHECK(parents[c] >= 0 && parents[c] < prefixes && (c == 0 || parents[c] >= parents[c - 1]),
               errors::InvalidArgument(op, ": argument 'parent_idx", step,
                                       "' must be non-decreasing prefix rows in [0, ", prefixes,
                                       "), received ", parents[c], " at ", c));
    }
    prefix_level[t].resize(static_cast<size_t>(prefixes) + 1);
    for (int64_t p = 0; p <= prefixes; ++p) {
      prefix_level[t][p] = std::lower_bound(parents.begin(), parents.end(), p) - parents.begin();
    }
  }

  const size_t sources = source_level[0].size() - 1;
  // Allocated first: beam_size sentences per source, most of them possibly empty, are what a
  // beam_size too large for memory asks for.
  sentence_offsets->Resize(DDim({static_cast<int64_t>(sources * beams) + 1}));
  int64_t* out_offsets = ctx.template Alloc<int64_t>(sentence_offsets);
  // The sentences of each source (one per candidate of its last step), and the candidate row
  // of each at the step being traced.
  std::vector<std::vector<decode_detail::Sentence<T>>> sentences(sources);
  std::vector<std::vector<int64_t>> sentence_rows(sources);
  for (size_t t = steps; t-- > 0;) {
    const int64_t* id = ids[t]->data<int64_t>();
    const T* score = scores[t]->data<T>();
    const std::vector<int64_t>& prefix_start = prefix_level[t];
    for (size_t s = 0; s < sources; ++s) {
      auto& source_sentences = sentences[s];
      auto& rows = sentence_rows[s];
      if (rows.empty()) {
        // The source's last step (it finished here, or this is the last step): each candidate
        // starts a sentence.
        const int64_t first = prefix_start[source_level[t][s]];
        const int64_t last = prefix_start[source_level[t][s + 1]];
        PD_CHECK(last - first <= static_cast<int64_t>(beams),
                 errors::InvalidArgument(op, ": source ", s, " has ", last - first,
                                         " candidates at step ", t, ", more than beam_size (",
                                         beam_size, ")"));
        for (int64_t c = first; c < last; ++c) {
          source_sentences.push_back({{id[c]}, {score[c]}});
          rows.push_back(c);
        }
      } else {
        for (size_t k = 0; k < rows.size(); ++k) {
          const int64_t c = rows[k];
          auto& sentence = source_sentences[k];
          // An end_id before a sentence's last token only repeats its end.
          if (id[c] != end_id) {
            sentence.ids.push_back(id[c]);
            sentence.scores.push_back(score[c]);
          }
        }
      }
      // Each candidate's prefix row is the candidate row of the step before.
      for (int64_t& row : rows) {
        row = std::upper_bound(prefix_start.begin(), prefix_start.end(), row) -
              prefix_start.begin() - 1;
      }
    }
  }

  // Best final score first, then the empty sentences of a source of fewer candidates.
  int64_t total = 0;
  for (auto& source_sentences : sentences) {
    std::stable_sort(
        source_sentences.begin(), source_sentences.end(),
        [](const auto& a, const auto& b) { return a.scores.front() > b.scores.front(); });
    for (const auto& sentence : source_sentences)
      total += static_cast<int64_t>(sentence.ids.size());
  }
  sentence_ids->Resize(DDim({total}));
  sentence_scores->Resize(DDim({total}));
  int64_t* out_id = ctx.template Alloc<int64_t>(sentence_ids);
  T* out_score = ctx.template Alloc<T>(sentence_scores);
  int64_t n = 0;
  int64_t* offset = out_offsets;
  *offset++ = 0;
  for (const auto& source_sentences : sentences) {
    for (const auto& sentence : source_sentences) {
      std::copy(sentence.ids.rbegin(), sentence.ids.rend(), out_id + n);
      std::copy(sentence.scores.rbegin(), sentence.scores.rend(), out_score + n);
      n += static_cast<int64_t>(sentence.ids.size());
      *offset++ = n;
    }
    offset = std::fill_n(offset, beams - source_sentences.size(), n);
  }
}

// Per sequence b of length L: alpha over the tags after each of its L steps (the emissions
// plus the best transition into each tag), the argmax of each step's transition kept to trace
// the best path back from the best final tag. With include_bos_eos_tag, the first step adds the
// start tag's row and step L - 1 the stop tag's row of transition_params, as Paddle does.
template <typename T, typename Context>
void ViterbiDecodeKernel(const Context& ctx, const DenseTensor& potentials,
                         const DenseTensor& transition_params, const DenseTensor& lengths,
                         bool include_bos_eos_tag, DenseTensor* scores, DenseTensor* path) {
  const int64_t batch = potentials.dims()[0];
  const int64_t steps = potentials.dims()[1];
  const int64_t tags = potentials.dims()[2];
  const int64_t* length = lengths.data<int64_t>();
  int64_t longest = 0;
  for (int64_t b = 0; b < batch; ++b) {
    PD_CHECK(length[b] >= 0 && length[b] <= steps,
             errors::InvalidArgument("viterbi_decode: argument 'lengths' must hold lengths in [0, ",
                                     steps, "] (the steps of 'potentials'), received ", length[b],
                                     " at ", b));
    longest = std::max(longest, length[b]);
  }
  PD_CHECK(batch == 0 || (steps > 0 && tags > 0),
           errors::InvalidArgument("viterbi_decode: argument 'potentials' must have at least one "
                                   "step and one tag, received shape ",
                                   potentials.dims().ToString()));
  scores->Resize(DDim({batch}));
  path->Resize(DDim({batch, longest}));
  T* out_score = ctx.template Alloc<T>(scores);
  int64_t* out_path = ctx.template Alloc<int64_t>(path);
  const T* trans = transition_params.data<T>();
  const T* stop_row = trans + (tags - 2) * tags;
  const T* start_row = trans + (tags - 1) * tags;
  std::vector<T> alpha(tags), best(tags);
  std::vector<int64_t> history(static_cast<size_t>(std::max<int64_t>(longest - 1, 0) * tags));
  for (int64_t b = 0; b < batch; ++b) {
    const T* emission = potentials.data<T>() + b * steps * tags;
    const int64_t len = length[b];
    std::copy_n(emission, tags, alpha.begin());
    if (include_bos_eos_tag) {
      for (int64_t j = 0; j < tags; ++j) alpha[j] += start_row[j] + (len == 1 ? stop_row[j] : T(0));
    }
    // Steps past the sequence's end leave alpha as it is; argmax ties take the first tag.
    for (int64_t i = 1; i < len; ++i) {
      int64_t* from = history.data() + (i - 1) * tags;
      for (int64_t j = 0; j < tags; ++j) {
        int64_t arg = 0;
        T value = alpha[0] + trans[j];
        for (int64_t k = 1; k < tags; ++k) {
          const T candidate = alpha[k] + trans[k * tags + j];
          if (candidate > value) {
            value = candidate;
            arg = k;
          }
        }
        from[j] = arg;
        best[j] = value + emission[i * tags + j];
      }
      const bool last = include_bos_eos_tag && i == len - 1;
      for (int64_t j = 0; j < tags; ++j) alpha[j] = best[j] + (last ? stop_row[j] : T(0));
    }
    const int64_t last_tag = std::max_element(alpha.begin(), alpha.end()) - alpha.begin();
    out_score[b] = alpha[last_tag];
    int64_t* row = out_path + b * longest;
    std::fill(row, row + longest, int64_t{0});
    if (len == 0) continue;
    row[len - 1] = last_tag;
    for (int64_t i = len - 1; i >= 1; --i) row[i - 1] = history[(i - 1) * tags + row[i]];
  }
}

}  // namespace paddle
