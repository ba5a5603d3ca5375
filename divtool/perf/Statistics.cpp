//===- Statistics.cpp - Means, confidence intervals and Welch's t-test ----===//

#include "divtool/perf/Statistics.h"

#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>

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

// Boost.Math's policy here: a domain error or an overflow gives NaN or
// infinity, never an exception (the inputs are checked first anyway).
using NoThrow = boost::math::policies::policy<
    boost::math::policies::domain_error<boost::math::policies::ignore_error>,
    boost::math::policies::overflow_error<boost::math::policies::ignore_error>,
    boost::math::policies::evaluation_error<
        boost::math::policies::ignore_error>>;
using StudentT = boost::math::students_t_distribution<double, NoThrow>;

double regularizedIncompleteBeta(double A, double B, double X) {
  if (!(A > 0) || !(B > 0) || !(X >= 0) || !(X <= 1))
    return NaN;
  return boost::math::ibeta(A, B, X, NoThrow());
}

double studentTTwoSided(double T, double Df) {
  if (std::isnan(T) || !(Df > 0))
    return NaN;
  if (std::isinf(T))
    return 0;
  // The upper tail directly, not 1 - CDF, so that small p-values keep
  // their precision.
  return 2 *
         boost::math::cdf(boost::math::complement(StudentT(Df), std::fabs(T)));
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
  return boost::math::quantile(boost::math::complement(StudentT(Df), 1 - P));
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
