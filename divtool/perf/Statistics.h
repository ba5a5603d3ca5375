//===- Statistics.h - Means, confidence intervals and Welch's t-test ------===//
//
// The statistics `divtool perf` reports, from one sample per variant (a
// variant's code layout is the random factor, as STABILIZER made it at run
// time): the mean, the sample standard deviation (n - 1), the median, a
// confidence interval of the mean from Student's t distribution, and, for
// two builds, Welch's unequal-variances t-test with the Welch-Satterthwaite
// degrees of freedom.
//
// Student's t distribution, its quantiles and the regularized incomplete
// beta function come from Boost.Math (students_t_distribution, ibeta), for
// any degrees of freedom, whole or not. Values agree with scipy and mpmath
// to about 1e-12 relative (tests/unit/StatisticsTest.cpp).
//
// Invariants: functions take samples as they are, never reorder the
// caller's data, and return NaN (or no value) instead of a number when the
// sample cannot support one (a variance needs 2 values).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_PERF_STATISTICS_H
#define DIVCC_DIVTOOL_PERF_STATISTICS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstddef>
#include <optional>

namespace divcc {

double mean(llvm::ArrayRef<double> X);
/// The sample variance, with n - 1 in the denominator; NaN below 2 values.
double sampleVariance(llvm::ArrayRef<double> X);
/// The median: the middle value, or the mean of the two middle values.
double median(llvm::ArrayRef<double> X);

/// I_x(a, b), the regularized incomplete beta function, for a, b > 0 and x
/// in [0, 1].
double regularizedIncompleteBeta(double A, double B, double X);
/// P(T <= t) for Student's t distribution with \p Df > 0 degrees of
/// freedom.
double studentTCdf(double T, double Df);
/// The t with P(T <= t) = \p P, for P in (0, 1).
double studentTQuantile(double P, double Df);
/// P(|T| >= |t|): the two-sided p-value of a t statistic.
double studentTTwoSided(double T, double Df);

/// A sample described, with a confidence interval of its mean.
struct Summary {
  size_t N = 0;
  double Mean = 0, StdDev = 0, Median = 0, Min = 0, Max = 0;
  /// The confidence level, e.g. 0.95, and the interval of the mean:
  /// Mean -+ t(1 - (1 - Level) / 2, N - 1) * StdDev / sqrt(N). NaN for
  /// fewer than 2 values.
  double Level = 0.95;
  double CiLow = 0, CiHigh = 0;
};
/// \p X described; \p X must not be empty.
Summary summarize(llvm::ArrayRef<double> X, double Level = 0.95);

/// Welch's t-test of "A and B have the same mean", and an interval of the
/// difference of the means.
struct WelchResult {
  /// B's mean minus A's, and its confidence interval at the given level.
  double Difference = 0, CiLow = 0, CiHigh = 0;
  /// Difference / its standard error (so of the sign of B - A, the
  /// opposite of scipy's ttest_ind(A, B)); its degrees of freedom (Welch-
  /// Satterthwaite); the two-sided p-value.
  double T = 0, Df = 0, P = 1;
};
/// Needs at least 2 values in each sample. Two samples without spread give
/// t = 0 and p = 1 when their means are equal, an infinite t and p = 0
/// otherwise.
std::optional<WelchResult> welchTest(llvm::ArrayRef<double> A,
                                     llvm::ArrayRef<double> B,
                                     double Level = 0.95);

} // namespace divcc

#endif
