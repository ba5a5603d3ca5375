//===- Statistics.cpp - Means, confidence intervals and Welch's t-test ----===//

#include "divtool/perf/Statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

using namespace llvm;

namespace divcc {

static constexpr double NaN = std::numeric_limits<double>::quiet_NaN();

double mean(ArrayRef<double> X) {
  if (X.empty())
    return NaN;
  double Sum = 0;
  for (double V : X)
    Sum += V;
  return Sum / double(X.size());
}

double sampleVariance(ArrayRef<double> X) {
  if (X.size() < 2)
    return NaN;
  // Two passes: the sum of squares about the mean loses no precision to
  // large means, as E[x^2] - E[x]^2 would.
  double M = mean(X), Sum = 0;
  for (double V : X)
    Sum += (V - M) * (V - M);
  return Sum / double(X.size() - 1);
}

double median(ArrayRef<double> X) {
  if (X.empty())
    return NaN;
  std::vector<double> Sorted(X.begin(), X.end());
  std::sort(Sorted.begin(), Sorted.end());
  size_t Half = Sorted.size() / 2;
  return Sorted.size() % 2 ? Sorted[Half]
                           : (Sorted[Half - 1] + Sorted[Half]) / 2;
}

/// The continued fraction of I_x(a, b) (Numerical Recipes 6.4, betacf),
/// evaluated by the modified Lentz method; converges fast for
/// x < (a + 1) / (a + b + 2).
static double betaContinuedFraction(double A, double B, double X) {
  constexpr double Tiny = 1e-300, Epsilon = 1e-16;
  double QAB = A + B, QAP = A + 1, QAM = A - 1;
  double C = 1, D = 1 - QAB * X / QAP;
  if (std::fabs(D) < Tiny)
    D = Tiny;
  D = 1 / D;
  double H = D;
  // One term of the fraction: updates C and D (kept away from 0) and
  // returns the factor the value is multiplied by.
  auto Term = [&](double AA) {
    D = 1 + AA * D;
    if (std::fabs(D) < Tiny)
      D = Tiny;
    C = 1 + AA / C;
    if (std::fabs(C) < Tiny)
      C = Tiny;
    D = 1 / D;
    return D * C;
  };
  for (int M = 1; M <= 10000; ++M) {
    int M2 = 2 * M;
    H *= Term(M * (B - M) * X / ((QAM + M2) * (A + M2)));
    double Delta = Term(-(A + M) * (QAB + M) * X / ((A + M2) * (QAP + M2)));
    H *= Delta;
    if (std::fabs(Delta - 1) < Epsilon)
      break;
  }
  return H;
}

double regularizedIncompleteBeta(double A, double B, double X) {
  if (!(A > 0) || !(B > 0) || !(X >= 0) || !(X <= 1))
    return NaN;
  if (X == 0 || X == 1)
    return X;
  // x^a (1 - x)^b / (a B(a, b)), through logarithms.
  double LogFront = std::lgamma(A + B) - std::lgamma(A) - std::lgamma(B) +
                    A * std::log(X) + B * std::log1p(-X);
  if (X < (A + 1) / (A + B + 2))
    return std::exp(LogFront) * betaContinuedFraction(A, B, X) / A;
  // The symmetry I_x(a, b) = 1 - I_(1-x)(b, a) keeps the fraction in its
  // fast region.
  return 1 - std::exp(LogFront) * betaContinuedFraction(B, A, 1 - X) / B;
}

double studentTTwoSided(double T, double Df) {
  if (std::isnan(T) || !(Df > 0))
    return NaN;
  if (std::isinf(T))
    return 0;
  return regularizedIncompleteBeta(Df / 2, 0.5, Df / (Df + T * T));
}

double studentTCdf(double T, double Df) {
  double Tail = studentTTwoSided(T, Df) / 2;
  return T >= 0 ? 1 - Tail : Tail;
}

double studentTQuantile(double P, double Df) {
  if (!(P > 0) || !(P < 1) || !(Df > 0))
    return NaN;
  if (P == 0.5)
    return 0;
  if (P < 0.5)
    return -studentTQuantile(1 - P, Df);
  // The upper tail 2 (1 - P) is computed directly, not as 1 - CDF, so that
  // quantiles near 1 keep their precision.
  double Tail = 2 * (1 - P);
  double Lo = 0, Hi = 2;
  while (studentTTwoSided(Hi, Df) > Tail && Hi < 1e300)
    Hi *= 2;
  for (int I = 0; I < 2000 && Hi - Lo > 1e-15 * Hi; ++I) {
    double Mid = Lo + (Hi - Lo) / 2;
    if (studentTTwoSided(Mid, Df) > Tail)
      Lo = Mid;
    else
      Hi = Mid;
  }
  return Lo + (Hi - Lo) / 2;
}

Summary summarize(ArrayRef<double> X, double Level) {
  Summary S;
  S.N = X.size();
  S.Level = Level;
  S.Mean = mean(X);
  S.StdDev = std::sqrt(sampleVariance(X));
  S.Median = median(X);
  S.Min = *std::min_element(X.begin(), X.end());
  S.Max = *std::max_element(X.begin(), X.end());
  if (S.N < 2) {
    S.CiLow = S.CiHigh = NaN;
    return S;
  }
  double Half = studentTQuantile(1 - (1 - Level) / 2, double(S.N - 1)) *
                S.StdDev / std::sqrt(double(S.N));
  S.CiLow = S.Mean - Half;
  S.CiHigh = S.Mean + Half;
  return S;
}

std::optional<WelchResult> welchTest(ArrayRef<double> A, ArrayRef<double> B,
                                     double Level) {
  if (A.size() < 2 || B.size() < 2)
    return std::nullopt;
  double NA = double(A.size()), NB = double(B.size());
  // The squared standard errors of the two means.
  double VA = sampleVariance(A) / NA, VB = sampleVariance(B) / NB;
  WelchResult R;
  R.Difference = mean(B) - mean(A);
  double SE = std::sqrt(VA + VB);
  if (SE == 0) {
    // No spread at all: the means are equal or they are not.
    R.Df = NA + NB - 2;
    R.T = R.Difference == 0
              ? 0
              : std::copysign(std::numeric_limits<double>::infinity(),
                              R.Difference);
    R.P = R.Difference == 0 ? 1 : 0;
    R.CiLow = R.CiHigh = R.Difference;
    return R;
  }
  R.T = R.Difference / SE;
  R.Df = (VA + VB) * (VA + VB) / (VA * VA / (NA - 1) + VB * VB / (NB - 1));
  R.P = studentTTwoSided(R.T, R.Df);
  double Half = studentTQuantile(1 - (1 - Level) / 2, R.Df) * SE;
  R.CiLow = R.Difference - Half;
  R.CiHigh = R.Difference + Half;
  return R;
}

} // namespace divcc
