//===- StatisticsTest.cpp - divtool perf's statistics ---------------------===//
//
// Student's t distribution and Welch's t-test against reference values
// computed with mpmath at 30 digits (betainc, findroot) and, for Welch's
// test, the worked example of its Wikipedia article (t = -2.46, df = 25.0,
// p = 0.021); the quantiles are also those of printed t tables.
//
//===----------------------------------------------------------------------===//

#include "divtool/perf/Statistics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace divcc;

namespace {

/// Relative closeness, for values of any magnitude.
void expectClose(double Actual, double Expected, double Relative = 1e-10) {
  EXPECT_NEAR(Actual, Expected, std::fabs(Expected) * Relative)
      << "expected " << Expected;
}

TEST(StatisticsTest, MeanVarianceMedian) {
  std::vector<double> X = {4, 1, 3, 2};
  EXPECT_DOUBLE_EQ(mean(X), 2.5);
  EXPECT_DOUBLE_EQ(sampleVariance(X), 5.0 / 3);
  EXPECT_DOUBLE_EQ(median(X), 2.5);
  EXPECT_DOUBLE_EQ(median(std::vector<double>{5, 1, 3}), 3);
  EXPECT_TRUE(std::isnan(sampleVariance(std::vector<double>{1})));
  // The caller's order is kept.
  EXPECT_EQ(X, (std::vector<double>{4, 1, 3, 2}));
  // Large values with a small spread keep their variance.
  std::vector<double> Big = {1e9 + 1, 1e9 + 2, 1e9 + 3};
  EXPECT_NEAR(sampleVariance(Big), 1.0, 1e-6);
}

TEST(StatisticsTest, IncompleteBeta) {
  expectClose(regularizedIncompleteBeta(2, 3, 0.4), 0.5248);
  expectClose(regularizedIncompleteBeta(0.5, 0.5, 0.3), 0.36901011956554538);
  expectClose(regularizedIncompleteBeta(10, 0.5, 0.9), 0.15164090963470997);
  expectClose(regularizedIncompleteBeta(5, 20, 0.1), 0.085074885878670839);
  EXPECT_EQ(regularizedIncompleteBeta(2, 3, 0), 0);
  EXPECT_EQ(regularizedIncompleteBeta(2, 3, 1), 1);
  EXPECT_TRUE(std::isnan(regularizedIncompleteBeta(-1, 3, 0.5)));
}

TEST(StatisticsTest, TwoSidedPValues) {
  expectClose(studentTTwoSided(2.0, 10), 0.073388034770740375);
  expectClose(studentTTwoSided(0.5, 3), 0.65144796484815111);
  expectClose(studentTTwoSided(-1.5, 7.3), 0.17556309280308604);
  expectClose(studentTTwoSided(4.0, 2), 0.057190958417936631);
  expectClose(studentTTwoSided(10, 30), 4.575251408229617e-11, 1e-8);
  EXPECT_EQ(studentTTwoSided(0, 5), 1);
  EXPECT_EQ(studentTTwoSided(INFINITY, 5), 0);
  expectClose(studentTCdf(2.0, 10), 1 - 0.073388034770740375 / 2);
  expectClose(studentTCdf(-2.0, 10), 0.073388034770740375 / 2);
}

TEST(StatisticsTest, Quantiles) {
  struct {
    double P, Df, T;
  } Table[] = {
      {0.975, 1, 12.706204736174693},  {0.975, 2, 4.3026527297494618},
      {0.975, 4, 2.7764451051977935},  {0.975, 9, 2.262157162798205},
      {0.975, 30, 2.0422724563012379}, {0.975, 1e6, 1.9599663568141067},
      {0.995, 10, 3.1692726726169507}, {0.95, 5, 2.0150483733330235},
      {0.975, 4.5, 2.658912347204403}, {0.9995, 1, 636.61924876878973},
  };
  for (const auto &Row : Table) {
    SCOPED_TRACE("P " + std::to_string(Row.P) + ", df " +
                 std::to_string(Row.Df));
    expectClose(studentTQuantile(Row.P, Row.Df), Row.T, 1e-9);
    expectClose(studentTQuantile(1 - Row.P, Row.Df), -Row.T, 1e-9);
  }
  EXPECT_EQ(studentTQuantile(0.5, 3), 0);
  EXPECT_TRUE(std::isnan(studentTQuantile(1, 3)));
  EXPECT_TRUE(std::isnan(studentTQuantile(0.9, 0)));
}

TEST(StatisticsTest, ConfidenceInterval) {
  std::vector<double> X = {10.2, 9.8, 10.1, 10.4, 9.9};
  Summary S = summarize(X);
  EXPECT_EQ(S.N, 5u);
  expectClose(S.Mean, 10.08);
  expectClose(S.StdDev, std::sqrt(0.057));
  double Half = 2.7764451051977935 * std::sqrt(0.057) / std::sqrt(5.0);
  expectClose(S.CiLow, 10.08 - Half);
  expectClose(S.CiHigh, 10.08 + Half);
  EXPECT_LT(S.CiLow, S.Mean);
  EXPECT_GT(S.CiHigh, S.Mean);
  EXPECT_EQ(S.Min, 9.8);
  EXPECT_EQ(S.Max, 10.4);
  EXPECT_EQ(S.Median, 10.1);
  Summary One = summarize(std::vector<double>{3});
  EXPECT_TRUE(std::isnan(One.CiLow));
}

TEST(StatisticsTest, WelchWikipediaExample) {
  std::vector<double> A1 = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                            21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
  std::vector<double> A2 = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                            24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
  std::optional<WelchResult> R = welchTest(A1, A2);
  ASSERT_TRUE(R);
  // T has the sign of mean(A2) - mean(A1).
  expectClose(R->T, 2.455356398286, 1e-9);
  expectClose(R->Df, 24.9885292902314, 1e-9);
  expectClose(R->P, 0.0213780014628671, 1e-8);
  EXPECT_LT(R->CiLow, R->Difference);
  EXPECT_GT(R->CiLow, 0); // significant at 5%: the interval excludes 0
}

TEST(StatisticsTest, WelchUnequalSizes) {
  std::vector<double> A = {1.2, 1.4, 1.1, 1.3};
  std::vector<double> B = {2.1, 1.0, 3.5, 2.2, 1.9, 2.8, 2.4};
  std::optional<WelchResult> R = welchTest(A, B);
  ASSERT_TRUE(R);
  expectClose(R->T, 3.40959752984428, 1e-9);
  expectClose(R->Df, 6.567347510565, 1e-9);
  expectClose(R->P, 0.0124557652585525, 1e-8);
}

TEST(StatisticsTest, WelchSameSample) {
  std::vector<double> A = {5.1, 4.9, 5.3, 5.0, 5.2};
  std::optional<WelchResult> R = welchTest(A, A);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->T, 0);
  EXPECT_EQ(R->P, 1);
  EXPECT_LT(R->CiLow, 0);
  EXPECT_GT(R->CiHigh, 0);
  // No spread: equal means are no difference, unequal ones are certain.
  std::vector<double> C = {2, 2, 2}, D = {3, 3, 3};
  EXPECT_EQ(welchTest(C, C)->P, 1);
  EXPECT_EQ(welchTest(C, D)->P, 0);
  EXPECT_FALSE(welchTest(std::vector<double>{1}, C));
}

} // namespace
