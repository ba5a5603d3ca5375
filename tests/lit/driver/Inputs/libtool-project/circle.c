/* circle: a few functions, each in its own section when divcc links */
int circle_step0(int x) { return x * 3 + 6; }
int circle_step1(int x) { return x * 4 + 7; }
int circle_step2(int x) { return x * 5 + 8; }
int circle_step3(int x) { return x * 6 + 9; }
int circle_step4(int x) { return x * 7 + 10; }
int circle_step5(int x) { return x * 8 + 11; }
int circle_step6(int x) { return x * 9 + 12; }
int circle_step7(int x) { return x * 10 + 13; }
int circle_all(int x) {
  int sum = 0;
  sum += circle_step0(x + 0);
  sum += circle_step1(x + 1);
  sum += circle_step2(x + 2);
  sum += circle_step3(x + 3);
  sum += circle_step4(x + 4);
  sum += circle_step5(x + 5);
  sum += circle_step6(x + 6);
  sum += circle_step7(x + 7);
  return sum;
}
