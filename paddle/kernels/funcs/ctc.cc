#include "paddle/kernels/funcs/ctc.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace paddle::funcs {

namespace {

constexpr double kLogZero = -std::numeric_limits<double>::infinity();

// log(exp(a) + exp(b) + exp(c)) without overflow, with one log: the recursions combine up to
// three states per step, and the transcendental calls are most of their cost.
double LogSum3(double a, double b, double c) {
  const double top = std::max({a, b, c});
  if (top == kLogZero) return kLogZero;
  return top + std::log(std::exp(a - top) + std::exp(b - top) + std::exp(c - top));
}

}  // namespace

template <typename T>
void CtcLossAndGradient(const T* logits, int64_t frames, int64_t frame_stride, int64_t classes,
                        const int64_t* label, int64_t label_length, int64_t blank, T* loss,
                        T* grad) {
  // Everything runs in double: the forward-backward sums over many alignments, and float
  // rounding of the log-probabilities would show in the gradient (a difference of two
  // probabilities close to each other).
  // The softmax of each frame, and its log.
  std::vector<double> probs(static_cast<size_t>(frames * classes));
  std::vector<double> log_probs(probs.size());
  for (int64_t t = 0; t < frames; ++t) {
    const T* row = logits + t * frame_stride;
    double* p = probs.data() + t * classes;
    double* lp = log_probs.data() + t * classes;
    double top = static_cast<double>(*std::max_element(row, row + classes));
    double sum = 0.0;
    for (int64_t c = 0; c < classes; ++c) {
      p[c] = std::exp(static_cast<double>(row[c]) - top);
      sum += p[c];
    }
    const double log_sum = top + std::log(sum);
    for (int64_t c = 0; c < classes; ++c) {
      p[c] /= sum;
      lp[c] = static_cast<double>(row[c]) - log_sum;
    }
  }

  // The states of the extended label: blank, label[0], blank, label[1], ..., blank.
  const int64_t states = 2 * label_length + 1;
  auto token = [&](int64_t s) { return s % 2 == 0 ? blank : label[s / 2]; };
  // An alignment may go from state s - 2 to s, skipping a blank, unless s is a blank or
  // repeats the label before it (two equal labels need a blank between them).
  auto can_skip = [&](int64_t s) { return s >= 2 && s % 2 == 1 && token(s) != token(s - 2); };

  // Only states that frame t can reach from the start (s < 2 (t + 1)) and that can still reach
  // the end in the frames left (s >= S - 2 (T - t)) take part; the others stay log 0, which
  // changes no alignment that completes.
  auto first_state = [&](int64_t t) { return std::max<int64_t>(0, states - 2 * (frames - t)); };
  auto end_state = [&](int64_t t) { return std::min<int64_t>(states, 2 * (t + 1)); };

  std::vector<double> alpha(static_cast<size_t>(frames * states), kLogZero);
  double log_likelihood = label_length == 0 ? 0.0 : kLogZero;  // of zero frames
  if (frames > 0) {
    for (int64_t s = first_state(0); s < end_state(0); ++s) alpha[s] = log_probs[token(s)];
    for (int64_t t = 1; t < frames; ++t) {
      const double* prev = alpha.data() + (t - 1) * states;
      double* cur = alpha.data() + t * states;
      const double* lp = log_probs.data() + t * classes;
      for (int64_t s = first_state(t); s < end_state(t); ++s) {
        const double a =
            LogSum3(prev[s], s >= 1 ? prev[s - 1] : kLogZero, can_skip(s) ? prev[s - 2] : kLogZero);
        cur[s] = a == kLogZero ? kLogZero : a + lp[token(s)];
      }
    }
    const double* last = alpha.data() + (frames - 1) * states;
    log_likelihood = LogSum3(last[states - 1], states > 1 ? last[states - 2] : kLogZero, kLogZero);
  }
  if (log_likelihood == kLogZero) {
    *loss = T(0);
    for (int64_t t = 0; t < frames; ++t) std::fill_n(grad + t * frame_stride, classes, T(0));
    return;
  }
  *loss = static_cast<T>(-log_likelihood);
  if (frames == 0) return;

  std::vector<double> beta(static_cast<size_t>(frames * states), kLogZero);
  {
    double* last = beta.data() + (frames - 1) * states;
    const double* lp = log_probs.data() + (frames - 1) * classes;
    last[states - 1] = lp[token(states - 1)];
    if (states > 1) last[states - 2] = lp[token(states - 2)];
  }
  for (int64_t t = frames - 2; t >= 0; --t) {
    const double* next = beta.data() + (t + 1) * states;
    double* cur = beta.data() + t * states;
    const double* lp = log_probs.data() + t * classes;
    for (int64_t s = first_state(t); s < end_state(t); ++s) {
      const double b = LogSum3(next[s], s + 1 < states ? next[s + 1] : kLogZero,
                               s + 2 < states && can_skip(s + 2) ? next[s + 2] : kLogZero);
      cur[s] = b == kLogZero ? kLogZero : b + lp[token(s)];
    }
  }

  // d loss / d logit[t][c] = softmax[t][c] - (posterior probability that frame t emits c); the
  // posterior of state s is alpha * beta / p(label), both of which count frame t's emission.
  // Posteriors are at most 1, so they are summed as probabilities.
  std::vector<double> occupancy(static_cast<size_t>(classes));
  for (int64_t t = 0; t < frames; ++t) {
    std::fill(occupancy.begin(), occupancy.end(), 0.0);
    const double* lp = log_probs.data() + t * classes;
    const double* a = alpha.data() + t * states;
    const double* b = beta.data() + t * states;
    for (int64_t s = first_state(t); s < end_state(t); ++s) {
      if (a[s] == kLogZero || b[s] == kLogZero) continue;
      const int64_t c = token(s);
      occupancy[c] += std::exp(a[s] + b[s] - lp[c] - log_likelihood);
    }
    T* g = grad + t * frame_stride;
    const double* p = probs.data() + t * classes;
    for (int64_t c = 0; c < classes; ++c) g[c] = static_cast<T>(p[c] - occupancy[c]);
  }
}

template <typename T>
int64_t CtcAlignSequence(const T* input, int64_t length, int64_t blank, bool merge_repeated,
                         T* output) {
  // The token before the first is -1, as in Paddle (a leading -1 merges into it).
  T prev = T(-1);
  int64_t count = 0;
  for (int64_t i = 0; i < length; ++i) {
    const T token = input[i];
    if (token != static_cast<T>(blank) && !(merge_repeated && token == prev)) {
      output[count++] = token;
    }
    prev = token;
  }
  return count;
}

template <typename T>
int64_t EditDistance(const T* hyp, int64_t m, const T* ref, int64_t n) {
  // One row of the (m + 1) x (n + 1) table at a time.
  std::vector<int64_t> row(static_cast<size_t>(n + 1));
  for (int64_t j = 0; j <= n; ++j) row[j] = j;
  for (int64_t i = 1; i <= m; ++i) {
    int64_t diagonal = row[0];
    row[0] = i;
    for (int64_t j = 1; j <= n; ++j) {
      const int64_t above = row[j];
      const int64_t substitute = diagonal + (hyp[i - 1] == ref[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[n];
}

template void CtcLossAndGradient<float>(const float*, int64_t, int64_t, int64_t, const int64_t*,
                                        int64_t, int64_t, float*, float*);
template void CtcLossAndGradient<double>(const double*, int64_t, int64_t, int64_t, const int64_t*,
                                         int64_t, int64_t, double*, double*);
template int64_t CtcAlignSequence<int32_t>(const int32_t*, int64_t, int64_t, bool, int32_t*);
template int64_t CtcAlignSequence<int64_t>(const int64_t*, int64_t, int64_t, bool, int64_t*);
template int64_t EditDistance<int32_t>(const int32_t*, int64_t, const int32_t*, int64_t);
template int64_t EditDistance<int64_t>(const int64_t*, int64_t, const int64_t*, int64_t);

}  // namespace paddle::funcs
