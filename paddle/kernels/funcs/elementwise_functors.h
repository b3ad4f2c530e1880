// Scalar functors of the elementwise ops, shared by the CPU and CUDA engines. Each computes in
// MathType<T> (float for 16-bit floats) and converts back once.
#pragma once

#include <cmath>
#include <type_traits>

#include "paddle/common/complex.h"
#include "paddle/kernels/funcs/fast_math.h"
#include "paddle/kernels/funcs/math_type.h"

namespace paddle::funcs {

// Note [Integer overflow]
// Signed integer overflow is undefined behaviour in C++, and INT_MIN / -1 traps on x86. NumPy
// (and Paddle) wrap: INT_MIN + -1 is INT_MAX, INT_MIN // -1 is INT_MIN. Integer arithmetic that
// can overflow therefore runs in Wrapping<T>, an unsigned type at least as wide as int (a
// narrower one would be promoted to int, which can overflow again), and converts back, which
// wraps modulo 2^bits.
template <typename T>
using Wrapping =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                       std::make_unsigned_t<std::conditional_t<
                           std::is_integral_v<T> && !std::is_same_v<T, bool>, T, int>>>;

template <typename T>
inline constexpr bool kWraps = std::is_integral_v<T>&& std::is_signed_v<T>;

// -a, wrapping for signed integers (the negation of INT_MIN is INT_MIN).
template <typename T>
PD_HOSTDEVICE T WrappingNegate(T a) {
  if constexpr (kWraps<T>) {
    return static_cast<T>(Wrapping<T>(0) - static_cast<Wrapping<T>>(a));
  } else {
    return -a;
  }
}

#define PD_WRAPPING_FUNCTOR(Name, op)                                                      \
  template <typename T>                                                                    \
  struct Name {                                                                            \
    PD_HOSTDEVICE T operator()(T a, T b) const {                                           \
      if constexpr (kWraps<T>) {                                                           \
        return static_cast<T>(static_cast<Wrapping<T>>(a) op static_cast<Wrapping<T>>(b)); \
      } else {                                                                             \
        using MT = MathType<T>;                                                            \
        return static_cast<T>(static_cast<MT>(a) op static_cast<MT>(b));                   \
      }                                                                                    \
    }                                                                                      \
  };

PD_WRAPPING_FUNCTOR(AddFunctor, +)
PD_WRAPPING_FUNCTOR(SubtractFunctor, -)
PD_WRAPPING_FUNCTOR(MultiplyFunctor, *)
#undef PD_WRAPPING_FUNCTOR

#define PD_BINARY_FUNCTOR(Name, expr)                          \
  template <typename T>                                        \
  struct Name {                                                \
    PD_HOSTDEVICE T operator()(T a_in, T b_in) const {         \
      using MT = MathType<T>;                                  \
      MT a = static_cast<MT>(a_in), b = static_cast<MT>(b_in); \
      return static_cast<T>(expr);                             \
    }                                                          \
  };

// A NaN operand is the result, as in Paddle and NumPy (a != a only for NaN).
PD_BINARY_FUNCTOR(MaximumFunctor, (a > b || a != a) ? a : b)
PD_BINARY_FUNCTOR(MinimumFunctor, (a < b || a != a) ? a : b)
#undef PD_BINARY_FUNCTOR

// Integer division by zero is undefined behaviour in C++; the engines check for it before
// running these (see IntegerDivisionGuard). A -1 divisor negates, wrapping (Note [Integer
// overflow]).
template <typename T>
struct DivideFunctor {
  PD_HOSTDEVICE T operator()(T a, T b) const {
    using MT = MathType<T>;
    if constexpr (kWraps<T>) {
      if (b == T(-1)) return WrappingNegate(a);
    }
    return static_cast<T>(static_cast<MT>(a) / static_cast<MT>(b));
  }
};

// Python semantics: rounds towards negative infinity.
template <typename T>
struct FloorDivideFunctor {
  PD_HOSTDEVICE T operator()(T a, T b) const {
    using MT = MathType<T>;
    if constexpr (std::is_integral_v<T>) {
      if constexpr (kWraps<T>) {
        if (b == T(-1)) return WrappingNegate(a);  // exact, so no rounding either
      }
      T q = a / b;
      return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
    } else {
      return static_cast<T>(std::floor(static_cast<MT>(a) / static_cast<MT>(b)));
    }
  }
};

// Python semantics: the result has the sign of the divisor.
template <typename T>
struct RemainderFunctor {
  PD_HOSTDEVICE T operator()(T a, T b) const {
    using MT = MathType<T>;
    if constexpr (std::is_integral_v<T>) {
      if constexpr (kWraps<T>) {
        if (b == T(-1)) return T(0);  // INT_MIN % -1 traps on x86
      }
      T r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    } else {
      MT ma = static_cast<MT>(a), mb = static_cast<MT>(b);
      MT r = std::fmod(ma, mb);
      return static_cast<T>((r != 0 && ((r < 0) != (mb < 0))) ? r + mb : r);
    }
  }
};

template <typename T>
struct PowFunctor {
  PD_HOSTDEVICE T operator()(T a, T b) const {
    using MT = MathType<T>;
    if constexpr (std::is_integral_v<T>) {
      // Exact integer power (std::pow through double loses precision for large int64).
      if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b % 2) ? -1 : 1) : 0);
      MultiplyFunctor<T> multiply;  // wraps on overflow, as NumPy's integer power does
      T result = 1, base = a;
      for (T e = b; e > 0; e >>= 1) {
        if (e & 1) result = multiply(result, base);
        base = multiply(base, base);
      }
      return result;
    } else {
      return static_cast<T>(std::pow(static_cast<MT>(a), static_cast<MT>(b)));
    }
  }
};

#define PD_COMPARE_FUNCTOR(Name, op)                   \
  template <typename T>                                \
  struct Name {                                        \
    PD_HOSTDEVICE bool operator()(T a, T b) const {    \
      using MT = MathType<T>;                          \
      return static_cast<MT>(a) op static_cast<MT>(b); \
    }                                                  \
  };
PD_COMPARE_FUNCTOR(EqualFunctor, ==)
PD_COMPARE_FUNCTOR(NotEqualFunctor, !=)
PD_COMPARE_FUNCTOR(LessThanFunctor, <)
PD_COMPARE_FUNCTOR(LessEqualFunctor, <=)
PD_COMPARE_FUNCTOR(GreaterThanFunctor, >)
PD_COMPARE_FUNCTOR(GreaterEqualFunctor, >=)
#undef PD_COMPARE_FUNCTOR

#define PD_LOGICAL_FUNCTOR(Name, op)                         \
  template <typename T>                                      \
  struct Name {                                              \
    PD_HOSTDEVICE bool operator()(T a, T b) const {          \
      return static_cast<bool>(static_cast<MathType<T>>(a))  \
          op static_cast<bool>(static_cast<MathType<T>>(b)); \
    }                                                        \
  };
PD_LOGICAL_FUNCTOR(LogicalAndFunctor, &&)
PD_LOGICAL_FUNCTOR(LogicalOrFunctor, ||)
PD_LOGICAL_FUNCTOR(LogicalXorFunctor, !=)
#undef PD_LOGICAL_FUNCTOR

template <typename T>
struct LogicalNotFunctor {
  PD_HOSTDEVICE bool operator()(T a) const {
    return !static_cast<bool>(static_cast<MathType<T>>(a));
  }
};

#define PD_UNARY_FUNCTOR(Name, expr)           \
  template <typename T>                        \
  struct Name {                                \
    PD_HOSTDEVICE T operator()(T x_in) const { \
      using MT = MathType<T>;                  \
      MT x = static_cast<MT>(x_in);            \
      return static_cast<T>(expr);             \
    }                                          \
  };

PD_UNARY_FUNCTOR(ExpFunctor, Exp(x))
PD_UNARY_FUNCTOR(LogFunctor, std::log(x))
PD_UNARY_FUNCTOR(SqrtFunctor, std::sqrt(x))
PD_UNARY_FUNCTOR(RsqrtFunctor, MT(1) / std::sqrt(x))
PD_UNARY_FUNCTOR(SinFunctor, std::sin(x))
PD_UNARY_FUNCTOR(CosFunctor, std::cos(x))
PD_UNARY_FUNCTOR(TanhFunctor, std::tanh(x))
PD_UNARY_FUNCTOR(SigmoidFunctor, MT(1) / (MT(1) + Exp(-x)))
PD_UNARY_FUNCTOR(ReluFunctor, x > MT(0) ? x : MT(0))
PD_UNARY_FUNCTOR(SiluFunctor, x / (MT(1) + Exp(-x)))
PD_UNARY_FUNCTOR(ErfFunctor, Erf(x))
PD_UNARY_FUNCTOR(SquareFunctor, MultiplyFunctor<MT>()(x, x))  // integers wrap
PD_UNARY_FUNCTOR(ReciprocalFunctor, MT(1) / x)
PD_UNARY_FUNCTOR(FloorFunctor, std::floor(x))
PD_UNARY_FUNCTOR(CeilFunctor, std::ceil(x))
// Halves round to even, as in PaddlePaddle 3 and NumPy (nearbyint in the default rounding mode).
PD_UNARY_FUNCTOR(RoundFunctor, std::nearbyint(x))
#undef PD_UNARY_FUNCTOR

// gelu(x) = x Phi(x) (exact, with erf) or x/2 (1 + tanh(k (x + c x^3))) (approximate); one
// functor per form, so the CPU loop of each vectorizes (a runtime flag keeps the tanh call of the
// other form in the loop).
// ---------------------------------------------------------------- complex numbers

template <typename T>  // T: the parts' type
struct ComplexFunctor {
  PD_HOSTDEVICE std::complex<T> operator()(T re, T im) const { return std::complex<T>(re, im); }
};

template <typename T>
struct RealFunctor {
  PD_HOSTDEVICE RealType<T> operator()(T x) const { return x.real(); }
};

template <typename T>
struct ImagFunctor {
  PD_HOSTDEVICE RealType<T> operator()(T x) const { return x.imag(); }
};

template <typename T>
struct ConjFunctor {
  PD_HOSTDEVICE T operator()(T x) const { return ConjIfComplex(x); }
};

// arg(x); for real x, 0 or pi by the sign (atan2(0, x), as Paddle and NumPy).
template <typename T>
struct AngleFunctor {
  PD_HOSTDEVICE RealType<T> operator()(T x) const {
    if constexpr (kIsComplex<T>) {
      return std::arg(x);
    } else {
      return std::atan2(T(0), x);
    }
  }
};

// d angle: out_grad * i z / |z|^2 for complex z (0 at z = 0); 0 for real x, where angle is
// piecewise constant.
template <typename T>
struct AngleGradFunctor {
  PD_HOSTDEVICE T operator()(T z, RealType<T> out_grad) const {
    if constexpr (kIsComplex<T>) {
      RealType<T> norm = std::norm(z);
      if (norm == RealType<T>(0)) return T(0);
      return T(-z.imag(), z.real()) * (out_grad / norm);
    } else {
      return T(0);
    }
  }
};

// |x|, a real number for complex x (its modulus, without overflow in the squares).
template <typename T>
struct AbsFunctor {
  PD_HOSTDEVICE RealType<T> operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    if constexpr (kIsComplex<T>) {
      return std::abs(x);
    } else {
      return static_cast<T>(x < MT(0) ? WrappingNegate(x) : x);  // abs(INT_MIN) is INT_MIN
    }
  }
};

// sign(NaN) is NaN, as in NumPy; a complex x gives x / |x| (0 for 0), Paddle's sgn.
template <typename T>
struct SignFunctor {
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    if constexpr (kIsComplex<T>) {
      RealType<T> modulus = std::abs(x);
      return modulus == RealType<T>(0) ? T(0) : x / modulus;
    } else {
      return static_cast<T>(x > MT(0) ? MT(1) : (x < MT(0) ? MT(-1) : (x == MT(0) ? MT(0) : x)));
    }
  }
};

template <typename T>
struct GeluFunctor {
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    return static_cast<T>(MT(0.5) * x * (MT(1) + Erf(x * static_cast<MT>(0.70710678118654752440))));
  }
};

template <typename T>
struct GeluTanhFunctor {
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    const MT k = static_cast<MT>(0.79788456080286535588);  // sqrt(2 / pi)
    return static_cast<T>(MT(0.5) * x * (MT(1) + std::tanh(k * (x + MT(0.044715) * x * x * x))));
  }
};

// out_grad * gelu'(x), in one pass: Phi(x) + x phi(x) (exact), or (1 + t)/2 + x/2 (1 - t^2)
// k (1 + 3 c x^2) with t = tanh(k (x + c x^3)) (approximate).
template <typename T>
struct GeluGradFunctor {
  PD_HOSTDEVICE T operator()(T x_in, T out_grad) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    const MT cdf = MT(0.5) + MT(0.5) * Erf(x * static_cast<MT>(0.70710678118654752440));
    const MT pdf = static_cast<MT>(0.39894228040143267794) * Exp(MT(-0.5) * x * x);
    return static_cast<T>(static_cast<MT>(out_grad) * (cdf + x * pdf));
  }
};

template <typename T>
struct GeluTanhGradFunctor {
  PD_HOSTDEVICE T operator()(T x_in, T out_grad) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    const MT k = static_cast<MT>(0.79788456080286535588);
    const MT c = static_cast<MT>(0.044715);
    const MT t = std::tanh(k * (x + c * x * x * x));
    const MT slope =
        MT(0.5) * (MT(1) + t) + MT(0.5) * x * (MT(1) - t * t) * k * (MT(1) + MT(3) * c * x * x);
    return static_cast<T>(static_cast<MT>(out_grad) * slope);
  }
};

template <typename T>
struct ScaleFunctor {
  MathType<T> scale, bias;
  bool bias_after_scale;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    AddFunctor<MT> add;  // integers wrap (Note [Integer overflow])
    MultiplyFunctor<MT> multiply;
    return static_cast<T>(bias_after_scale ? add(multiply(scale, x), bias)
                                           : multiply(scale, add(x, bias)));
  }
};

template <typename T>
struct ClipFunctor {
  MathType<T> min, max;
  PD_HOSTDEVICE T operator()(T x_in) const {
    MathType<T> x = static_cast<MathType<T>>(x_in);
    return static_cast<T>(x < min ? min : (x > max ? max : x));
  }
};

template <typename T>
struct PowScalarFunctor {
  MathType<T> factor;
  PD_HOSTDEVICE T operator()(T x) const {
    return PowFunctor<MathType<T>>()(static_cast<MathType<T>>(x), factor);
  }
};

// ---------------------------------------------------------------- activations
// Comparisons are written so that a NaN input gives NaN where the formula has one (NumPy's
// result), and the branch a NaN takes is the one NumPy's np.where takes for the same test.

// x * clip(x + 3, 0, 6) / 6
template <typename T>
struct HardswishFunctor {
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    MT r = x + MT(3);
    r = r < MT(0) ? MT(0) : (r > MT(6) ? MT(6) : r);
    return static_cast<T>(x * r / MT(6));
  }
};

// clip(slope * x + offset, 0, 1)
template <typename T>
struct HardsigmoidFunctor {
  MathType<T> slope, offset;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT r = slope * static_cast<MT>(x_in) + offset;
    return static_cast<T>(r < MT(0) ? MT(0) : (r > MT(1) ? MT(1) : r));
  }
};

// x * tanh(softplus(x)), softplus(x) = log(1 + exp(x)) taken as x above `threshold` (where the
// two agree to working precision and exp could overflow).
template <typename T>
struct MishFunctor {
  MathType<T> threshold;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    MT softplus = x > threshold ? x : std::log1p(std::exp(x));
    return static_cast<T>(x * std::tanh(softplus));
  }
};

// softplus(beta * x) / beta, and x where beta * x exceeds `threshold`.
template <typename T>
struct SoftplusFunctor {
  MathType<T> beta, threshold;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    MT scaled = beta * x;
    return static_cast<T>(scaled > threshold ? x : std::log1p(std::exp(scaled)) / beta);
  }
};

// x above 0, alpha * (exp(x) - 1) below (scaled by `scale` for selu, 1 for elu).
template <typename T>
struct EluFunctor {
  MathType<T> alpha, scale;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    return static_cast<T>(scale * (x > MT(0) ? x : alpha * std::expm1(x)));
  }
};

// max(0, x) + min(0, alpha * (exp(x / alpha) - 1)): x above 0, the exponential part below (for
// either sign of alpha).
template <typename T>
struct CeluFunctor {
  MathType<T> alpha;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    return static_cast<T>(x > MT(0) ? x : alpha * std::expm1(x / alpha));
  }
};

template <typename T>
struct LeakyReluFunctor {
  MathType<T> negative_slope;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    return static_cast<T>(x > MT(0) ? x : negative_slope * x);
  }
};

// x where x > threshold, else `value`.
template <typename T>
struct ThresholdedReluFunctor {
  MathType<T> threshold, value;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    return static_cast<T>(x > threshold ? x : value);
  }
};

// x moved towards 0 by `threshold`, and 0 within [-threshold, threshold].
template <typename T>
struct SoftshrinkFunctor {
  MathType<T> threshold;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    return static_cast<T>(x > threshold ? x - threshold : (x < -threshold ? x + threshold : MT(0)));
  }
};

// x outside [-threshold, threshold], 0 within.
template <typename T>
struct HardshrinkFunctor {
  MathType<T> threshold;
  PD_HOSTDEVICE T operator()(T x_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    return static_cast<T>(x > threshold || x < -threshold ? x : MT(0));
  }
};

#define PD_ACTIVATION_FUNCTOR(Name, expr)      \
  template <typename T>                        \
  struct Name {                                \
    PD_HOSTDEVICE T operator()(T x_in) const { \
      using MT = MathType<T>;                  \
      MT x = static_cast<MT>(x_in);            \
      return static_cast<T>(expr);             \
    }                                          \
  };
PD_ACTIVATION_FUNCTOR(SoftsignFunctor, x / (MT(1) + (x < MT(0) ? -x : x)))
PD_ACTIVATION_FUNCTOR(TanhShrinkFunctor, x - std::tanh(x))
// log(sigmoid(x)) = min(x, 0) - log(1 + exp(-|x|)), which neither overflows nor loses the small
// values of either tail.
PD_ACTIVATION_FUNCTOR(LogsigmoidFunctor,
                      (x < MT(0) ? x : MT(0)) - std::log1p(std::exp(x < MT(0) ? x : -x)))
#undef PD_ACTIVATION_FUNCTOR

// prelu: x above 0, alpha * x below, with alpha broadcast to x.
template <typename T>
struct PreluFunctor {
  PD_HOSTDEVICE T operator()(T x_in, T alpha_in) const {
    using MT = MathType<T>;
    MT x = static_cast<MT>(x_in);
    return static_cast<T>(x > MT(0) ? x : static_cast<MT>(alpha_in) * x);
  }
};

// cast's element conversion: through MathType<In>, and to bool as "!= 0".
template <typename In, typename Out>
struct CastFunctor {
  PD_HOSTDEVICE Out operator()(In v) const {
    if constexpr (std::is_same_v<Out, bool>) {
      return static_cast<MathType<In>>(v) != MathType<In>(0);
    } else if constexpr (kIsComplex<In> && !kIsComplex<Out>) {
      return static_cast<Out>(v.real());  // Paddle and NumPy keep the real part
    } else if constexpr (kIsComplex<Out> && !kIsComplex<In>) {
      return Out(static_cast<RealType<Out>>(static_cast<MathType<In>>(v)));
    } else {
      return static_cast<Out>(static_cast<MathType<In>>(v));
    }
  }
};

}  // namespace paddle::funcs
